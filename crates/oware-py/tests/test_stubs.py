"""The type stubs name everything the native module exports."""

import ast
from pathlib import Path

import oware
from oware import _oware

STUB = Path(__file__).resolve().parents[1] / "python" / "oware" / "_oware.pyi"


def stub_names():
    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    names = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            names[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
        elif isinstance(node, ast.FunctionDef):
            names[node.name] = set()
        elif isinstance(node, ast.AnnAssign):
            names[node.target.id] = set()
    return names


def test_every_export_and_method_has_a_stub():
    stubs = stub_names()
    for name in dir(_oware):
        if name.startswith("_"):
            continue
        assert name in stubs, f"{name} has no stub"
        obj = getattr(_oware, name)
        if isinstance(obj, type):
            public = {m for m in vars(obj) if not m.startswith("_")}
            assert public <= stubs[name], f"{name}: no stub for {public - stubs[name]}"


def test_public_classes_and_functions_have_docstrings():
    for name in oware.__all__:
        obj = getattr(oware, name)
        if callable(obj) or isinstance(obj, type(oware)):
            assert obj.__doc__, f"{name} has no docstring"
