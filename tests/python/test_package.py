"""The package energy_audit as Python users meet it: its type stubs name exactly what the
compiled extension exports, with the parameters, defaults and kinds of its signatures, and
help() shows the units and defaults."""
import ast
import inspect
import pathlib
import types
import unittest

import energy_audit as ea
from energy_audit import _energy_audit as extension

PACKAGE = pathlib.Path(ea.__file__).resolve().parent
STUB = PACKAGE / "_energy_audit.pyi"


def public_names(module):
    return {name for name in dir(module) if not name.startswith("_")}


def stub_tree():
    return ast.parse(STUB.read_text(encoding="utf-8"))


def stub_definitions():
    """{name: node} of the stub's top-level functions, classes and annotated names (an
    overloaded function's last overload)."""
    definitions = {}
    for node in stub_tree().body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            definitions[node.name] = node
        elif isinstance(node, ast.AnnAssign):
            definitions[node.target.id] = node
    return definitions


def stub_overloads(name):
    """The stub's definitions of the function `name`, one per overload, in order."""
    return [node for node in stub_tree().body if isinstance(node, ast.FunctionDef) and node.name == name]


def parameters_of(arguments):
    """(kind, name, default) of each parameter of an ast.arguments; the name of **kwargs is
    left out (pybind11 calls it kwargs, the stub options)."""
    kinds = []
    positional = arguments.posonlyargs + arguments.args
    defaults = [None] * (len(positional) - len(arguments.defaults)) + arguments.defaults
    for argument, default in zip(positional, defaults):
        kinds.append(("positional", argument.arg, None if default is None else ast.literal_eval(default)))
    for argument, default in zip(arguments.kwonlyargs, arguments.kw_defaults):
        kinds.append(("keyword", argument.arg, None if default is None else ast.literal_eval(default)))
    if arguments.kwarg is not None:
        kinds.append(("**", "", None))
    return kinds


def extension_parameters(function):
    """The parameters of each overload of a pybind11 function, from the signature lines of its
    docstring (one line; an overloaded function's "1. name(...)", "2. name(...)", ...)."""
    lines = function.__doc__.splitlines()
    if len(lines) > 1 and lines[1] == "Overloaded function.":
        signatures = [line.split(". ", 1)[1] for line in lines
                      if line.split(". ", 1)[0].isdigit() and line.split(". ", 1)[-1].startswith(function.__name__ + "(")]
    else:
        signatures = [lines[0]]
    overloads = []
    for signature in signatures:
        head, _, _ = signature.rpartition(" -> ")
        parameters = head[head.index("(") + 1:-1]
        overloads.append(parameters_of(ast.parse(f"def f({parameters}): pass").body[0].args))
    return overloads


class StubTest(unittest.TestCase):
    def test_the_stub_names_exactly_the_extensions_public_names(self):
        self.assertEqual(set(stub_definitions()) - {"__version__"}, public_names(extension))

    def test_every_function_has_the_extensions_parameters_and_defaults(self):
        definitions = stub_definitions()
        for name in sorted(public_names(extension)):
            value = getattr(extension, name)
            if isinstance(value, type):
                continue
            with self.subTest(function=name):
                self.assertIsInstance(definitions[name], ast.FunctionDef)
                stubs = stub_overloads(name)
                self.assertEqual([parameters_of(stub.args) for stub in stubs], extension_parameters(value))
                for stub in stubs:
                    self.assertIsNotNone(stub.returns)
                    for argument in stub.args.args + stub.args.kwonlyargs:
                        self.assertIsNotNone(argument.annotation, argument.arg)

    def test_every_class_has_the_attributes_and_bases_of_the_extensions(self):
        definitions = stub_definitions()
        for name in sorted(public_names(extension)):
            value = getattr(extension, name)
            if not isinstance(value, type):
                continue
            with self.subTest(cls=name):
                stub = definitions[name]
                self.assertIsInstance(stub, ast.ClassDef)
                self.assertEqual([ast.unparse(base) for base in stub.bases],
                                 [base.__name__ for base in value.__bases__ if base.__name__ != "pybind11_object"])
                if issubclass(value, BaseException):
                    continue
                attributes = {node.name for node in stub.body if isinstance(node, ast.FunctionDef)}
                self.assertEqual(attributes, public_names(value))

    def test_the_package_exports_the_extension_and_annotated_python(self):
        # A name the package defines in Python rather than in the extension is typed by its own
        # annotations (py.typed), so it must carry them.
        for name in sorted(public_names(ea) - public_names(extension)):
            value = getattr(ea, name)
            if isinstance(value, types.ModuleType):
                continue
            with self.subTest(name=name):
                self.assertTrue(inspect.isfunction(value) or inspect.isclass(value), f"{name}: {value!r}")
                if inspect.isfunction(value):
                    signature = inspect.signature(value)
                    self.assertIsNot(signature.return_annotation, inspect.Signature.empty, name)
                    for parameter in signature.parameters.values():
                        self.assertIsNot(parameter.annotation, inspect.Parameter.empty, f"{name}({parameter.name})")
        self.assertEqual(ea.__version__, extension.__version__)

    def test_the_stub_and_py_typed_are_in_the_package(self):
        self.assertTrue(STUB.is_file())
        self.assertTrue((PACKAGE / "py.typed").is_file())


class HelpTest(unittest.TestCase):
    def test_help_of_run_shows_parameters_units_and_defaults(self):
        text = ea.run.__doc__
        self.assertIn("run(model: str, method: str = 'rk4', step: Optional[float] = None", text)
        self.assertIn("threshold: float = 0.001", text)
        for unit in ("step: the fixed step h [s]", "t_end: the end of the interval [s]", "[W]", "[J]"):
            self.assertIn(unit, text)

    def test_every_function_and_result_has_a_docstring(self):
        for name in sorted(public_names(extension)):
            value = getattr(extension, name)
            with self.subTest(name=name):
                self.assertTrue(value.__doc__ and value.__doc__.strip())
            if isinstance(value, type) and not issubclass(value, BaseException):
                for attribute in sorted(public_names(value)):
                    with self.subTest(name=f"{name}.{attribute}"):
                        self.assertTrue(getattr(value, attribute).__doc__, attribute)


if __name__ == "__main__":
    unittest.main()
