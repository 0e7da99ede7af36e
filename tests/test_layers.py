"""The layers of docs/architecture.md hold for the imports inside functions too.

``lint-imports`` (pyproject.toml's ``[tool.importlinter]``, run by ``make test``) checks
every import against the layers but cannot tell an import inside a function from one at
the top of a module. Here: an import of rummykit inside a function never goes up the
layers nor across to a side-by-side package, and it is there only because the module it
imports needs an optional package (rummykit itself depends on none), so that the importing
module still imports without it. Any other import belongs at the top of its module.
"""

from __future__ import annotations

import ast
import sys
import tomllib
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "rummykit"
CONFIG = tomllib.loads((SRC.parent / "pyproject.toml").read_text(encoding="utf-8"))


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py") if "migrations" not in p.parts}


def imports(tree: ast.Module) -> list[tuple[str, bool, int]]:
    """Each rummykit or other absolute import: (module, inside a function, line)."""
    found: list[tuple[str, bool, int]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if isinstance(child, ast.Import):
                found.extend((a.name, inner, child.lineno) for a in child.names)
            elif isinstance(child, ast.ImportFrom) and child.level == 0 and child.module:
                found.append((child.module, inner, child.lineno))
                found.extend((f"{child.module}.{a.name}", inner, child.lineno)
                             for a in child.names if f"{child.module}.{a.name}" in MODULES)
            visit(child, inner)

    visit(tree, False)
    return found


IMPORTS = {name: imports(ast.parse(path.read_text(encoding="utf-8")))
           for name, path in MODULES.items()}


def optional_packages(module: str, seen: set[str] | None = None) -> set[str]:
    """The packages outside the standard library that importing ``module`` imports."""
    seen = set() if seen is None else seen
    if module in seen:
        return set()
    seen.add(module)
    out: set[str] = set()
    for name, in_function, _ in IMPORTS.get(module, []):
        top = name.split(".")[0]
        if in_function or top == "__future__":
            continue
        if top == "rummykit":
            parts = name.split(".")
            for end in range(2, len(parts) + 1):
                out |= optional_packages(".".join(parts[:end]), seen)
        elif top not in sys.stdlib_module_names:
            out.add(top)
    return out


def contract(contract_id: str) -> dict[str, object]:
    (found,) = [c for c in CONFIG["tool"]["importlinter"]["contracts"]
                if c["id"] == contract_id]
    return found


def placement(contract_id: str) -> dict[str, tuple[int, str, bool]]:
    """Each layer's packages: (height, the package, whether its side is independent)."""
    c = contract(contract_id)
    (container,) = c["containers"]  # type: ignore[misc]
    out = {}
    for height, line in enumerate(reversed(c["layers"])):  # type: ignore[arg-type]
        independent = ":" not in line
        for part in line.replace(":", "|").split("|"):
            out[f"{container}.{part.strip()}"] = (height, part.strip(), independent)
    return out


def place(module: str, layers: dict[str, tuple[int, str, bool]]) -> str | None:
    return next((p for p in layers if module == p or module.startswith(p + ".")), None)


def crossings(contract_id: str) -> list[str]:
    """The imports inside functions that break the rule of this module's docstring."""
    layers = placement(contract_id)
    ignored = {tuple(s.replace(" ", "").split("->"))
               for s in contract(contract_id).get("ignore_imports", [])}  # type: ignore[attr-defined]
    bad = []
    for module, found in IMPORTS.items():
        for name, in_function, line in found:
            if not in_function or not name.startswith("rummykit."):
                continue
            if (module, name) in ignored:
                continue
            source, target = place(module, layers), place(name, layers)
            if source is None or target is None or source == target:
                continue
            where = f"{MODULES[module].relative_to(SRC)}:{line} imports {name}"
            (up, _, independent) = layers[source]
            (down, _, _) = layers[target]
            if down > up or (down == up and independent):
                bad.append(f"{where}: up or across the layers")
            elif not optional_packages(name):
                bad.append(f"{where} inside a function: it needs no optional package, "
                           "import it at the top")
    return bad


def test_every_package_has_its_layer() -> None:
    layers = placement("layers")
    tops = {name.split(".")[1] for name in MODULES if name.count(".") >= 1}
    assert sorted(t for t in tops if f"rummykit.{t}" not in layers) == []


def test_imports_inside_functions_stay_within_the_layers() -> None:
    assert crossings("layers") == []


def test_the_engine_imports_inside_functions_stay_within_its_layers() -> None:
    assert crossings("engine") == []
