"""pip installs the package energy_audit into a fresh virtual environment, from which it imports
in another directory, and python -m build makes its wheel: both from a copy of python/ (the
checkout stays clean), the extension taken from the configured build tree
ENERGY_AUDIT_CMAKE_BUILD_DIR (nothing compiled again), nothing downloaded."""
import importlib.util
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import unittest
import zipfile

SOURCE = os.environ.get("ENERGY_AUDIT_SOURCE_DIR")
BUILD = os.environ.get("ENERGY_AUDIT_CMAKE_BUILD_DIR")


@unittest.skipUnless(SOURCE and BUILD, "ENERGY_AUDIT_SOURCE_DIR and ENERGY_AUDIT_CMAKE_BUILD_DIR name the "
                     "repository and its build tree")
class PipInstallTest(unittest.TestCase):
    """pip and python -m build on a copy of python/ (the checkout stays clean), the extension taken
    from the configured build tree, nothing downloaded."""

    @classmethod
    def setUpClass(cls):
        for module, package in (("pip", "python3-pip"), ("setuptools", "python3-setuptools"),
                                ("wheel", "python3-wheel")):
            if importlib.util.find_spec(module) is None:
                raise unittest.SkipTest(f"{module} is not installed (Debian: {package})")
        cls.directory = tempfile.TemporaryDirectory()
        cls.work = pathlib.Path(cls.directory.name)
        cls.source = cls.work / "python"
        shutil.copytree(pathlib.Path(SOURCE) / "python", cls.source,
                        ignore=shutil.ignore_patterns("*.cpp", "*.hpp", "CMakeLists.txt", "build", "dist",
                                                      "*.egg-info", "__pycache__"))
        cls.environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}

    @classmethod
    def tearDownClass(cls):
        cls.directory.cleanup()

    def run_here(self, *arguments, cwd=None):
        completed = subprocess.run(arguments, cwd=cwd or self.work, env=self.environment, capture_output=True,
                                   text=True)
        self.assertEqual(completed.returncode, 0, completed.stdout + completed.stderr)
        return completed.stdout

    def test_pip_installs_a_package_that_imports_anywhere(self):
        venv = self.work / "venv"
        # Without pip of its own (ensurepip takes longer than the rest): the system's pip, run by
        # the venv's Python, installs into the venv.
        self.run_here(sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(venv))
        python = venv / "bin" / "python"
        self.run_here(str(python), "-m", "pip", "install", "--no-index", "--no-build-isolation", str(self.source))
        elsewhere = self.work / "elsewhere"
        elsewhere.mkdir()
        output = self.run_here(str(python), "-c", (
            "import pathlib, energy_audit as ea\n"
            "package = pathlib.Path(ea.__file__).parent\n"
            "print(package)\n"
            "print(ea.__version__)\n"
            "print(sorted(p.name for p in package.iterdir() if p.suffix in ('.pyi', '.typed')))\n"
            "r = ea.run('crane', step=1e-2, t_end=0.5)\n"
            "print(r.verdict, r.steps)\n"), cwd=elsewhere)
        package, version, typed, result = output.splitlines()
        self.assertTrue(pathlib.Path(package).is_relative_to(venv), package)
        self.assertEqual(version, os.environ["ENERGY_AUDIT_VERSION"])
        self.assertEqual(typed, "['_energy_audit.pyi', 'py.typed']")
        self.assertEqual(result, "pass 50")

    def test_build_makes_a_wheel(self):
        try:
            import build  # noqa: F401  Debian: python3-build
        except ImportError:
            self.skipTest("python -m build is not installed (Debian: python3-build)")
        dist = self.work / "dist"
        self.run_here(sys.executable, "-m", "build", "--no-isolation", "--wheel", "--outdir", str(dist),
                      str(self.source))
        wheels = list(dist.glob("*.whl"))
        self.assertEqual(len(wheels), 1, wheels)
        self.assertTrue(wheels[0].name.startswith(f"energy_audit-{os.environ['ENERGY_AUDIT_VERSION']}-"))
        names = zipfile.ZipFile(wheels[0]).namelist()
        for expected in ("energy_audit/__init__.py", "energy_audit/_energy_audit.pyi", "energy_audit/py.typed"):
            self.assertIn(expected, names)
        self.assertTrue(any(name.startswith("energy_audit/_energy_audit.") and name.endswith(".so")
                            for name in names), names)


if __name__ == "__main__":
    unittest.main()
