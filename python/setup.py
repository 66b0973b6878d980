"""Builds the package energy_audit: the compiled extension energy_audit._energy_audit by the
project's CMake (the repository is this directory's parent; the target energy_audit_python
only), with the package's Python files, stubs and py.typed from energy_audit/.

Environment:
  ENERGY_AUDIT_SOURCE_DIR       the repository, when these files are a copy of its python/.
  ENERGY_AUDIT_CMAKE_BUILD_DIR  a configured build tree of the repository to build the extension
                                in and take it from (nothing is rebuilt when it is up to date);
                                without it, CMake configures a tree of its own under build/.
  ENERGY_AUDIT_CMAKE_ARGS       more arguments for that configuration (-DCMAKE_BUILD_TYPE=Debug).
  CMAKE_CXX_COMPILER_LAUNCHER, CMAKE_C_COMPILER_LAUNCHER (ccache), CMAKE_BUILD_PARALLEL_LEVEL:
                                as CMake reads them.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext

PACKAGE_DIR = Path(__file__).resolve().parent
REPOSITORY = Path(os.environ.get("ENERGY_AUDIT_SOURCE_DIR") or PACKAGE_DIR.parent).resolve()
TARGET = "energy_audit_python"


def project_version():
    """The CMake project's version: project(EnergyAudit VERSION x.y.z) in CMakeLists.txt."""
    text = (REPOSITORY / "CMakeLists.txt").read_text(encoding="utf-8")
    found = re.search(r"project\(\s*EnergyAudit\s+VERSION\s+([0-9][0-9.]*)", text)
    if not found:
        sys.exit(f"energy_audit: no project(EnergyAudit VERSION ...) in {REPOSITORY / 'CMakeLists.txt'}")
    return found.group(1)


class CMakeBuild(build_ext):
    """Builds the extension with the project's CMake and copies it where setuptools packages it."""

    def build_extension(self, ext):
        given = os.environ.get("ENERGY_AUDIT_CMAKE_BUILD_DIR")
        if given:
            build_dir = Path(given).resolve()
            if not (build_dir / "CMakeCache.txt").is_file():
                sys.exit(f"energy_audit: ENERGY_AUDIT_CMAKE_BUILD_DIR={given} is no configured CMake build tree")
        else:
            build_dir = Path(self.build_temp).resolve() / "cmake"
            self.configure(build_dir)
        self.run_command_line(["cmake", "--build", str(build_dir), "--target", TARGET])
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        built = build_dir / "python" / "energy_audit" / f"_energy_audit{suffix}"
        if not built.is_file():
            sys.exit(f"energy_audit: {built} was not built: is the build tree's Python ({suffix}) this one, "
                     f"{sys.executable}, and were Python's NumPy and pybind11 found (CMake's message)?")
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)

    def configure(self, build_dir):
        """Configures the repository for the extension alone, with this Python."""
        build_type = "Debug" if self.debug else "Release"
        arguments = ["cmake", "-S", str(REPOSITORY), "-B", str(build_dir), f"-DCMAKE_BUILD_TYPE={build_type}",
                     f"-DPython_EXECUTABLE={sys.executable}", "-DEA_BUILD_PYTHON=ON", "-DEA_BUILD_CLI=OFF",
                     "-DEA_BUILD_TESTS=OFF", "-DEA_BUILD_BENCHMARKS=OFF", "-DEA_BUILD_MPI=OFF",
                     *shlex.split(os.environ.get("ENERGY_AUDIT_CMAKE_ARGS", ""))]
        self.run_command_line(arguments)

    def run_command_line(self, arguments):
        print(" ".join(shlex.quote(a) for a in arguments), flush=True)
        try:
            subprocess.run(arguments, check=True)
        except FileNotFoundError:
            sys.exit("energy_audit: cmake not found (Debian: cmake)")
        except subprocess.CalledProcessError as failed:
            sys.exit(f"energy_audit: {arguments[0]} {arguments[1]} failed with exit status {failed.returncode}")


setup(
    version=project_version(),
    packages=find_packages(include=["energy_audit", "energy_audit.*"]),
    package_data={"energy_audit": ["*.pyi", "py.typed"]},
    ext_modules=[Extension("energy_audit._energy_audit", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
)
