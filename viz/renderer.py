"""The browser renderer's files: ES modules in ``viz/js`` that import each other, and one script made of them.

The app serves the modules as they are (``glue.scene_chart``: the browser resolves their imports); the offline HTML
export (:func:`viz.export.standalone_html`) has no server to ask, so it carries :func:`bundle`, the same modules in
one script. ``main.js`` is the entry: the components-v2 component's default export, and ``mountScene``.
"""

from __future__ import annotations

import hashlib
import re
from functools import cache
from pathlib import Path

JS_DIR = Path(__file__).with_name("js")
ENTRY = "main.js"
# the renderer's import lines are of one form, which bundle() takes out: import {a, b} from "./x.js";
IMPORT = re.compile(r'^import \{[^}]*\} from "\./([\w-]+\.js)";\n', re.MULTILINE)
EXPORT = re.compile(r"^export (?=(const|let|class|function|async function) )", re.MULTILINE)


@cache
def modules() -> dict[str, str]:
    """Each module's file name and text."""
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(JS_DIR.glob("*.js"))}


def imports(text: str) -> list[str]:
    """The modules ``text`` imports, in its order."""
    return IMPORT.findall(text)


def order() -> list[str]:
    """Every module reached from :data:`ENTRY`, each after the modules it imports (a cycle is an error)."""
    mods, done, out = modules(), set(), []

    def visit(name: str, path: tuple[str, ...]) -> None:
        if name in path:
            raise ValueError(f"the renderer's modules import each other in a cycle: {' -> '.join((*path, name))}")
        if name in done:
            return
        if name not in mods:
            raise ValueError(f"{path[-1] if path else 'the renderer'} imports {name}, which viz/js does not have")
        for dep in imports(mods[name]):
            visit(dep, (*path, name))
        done.add(name)
        out.append(name)

    visit(ENTRY, ())
    return out


@cache
def bundle() -> str:
    """The modules as one module script: in dependency order, their imports taken out and their named exports made
    plain declarations (the modules' top-level names are distinct, so one scope holds them); ``main.js``'s default
    export stays."""
    return "\n".join(EXPORT.sub("", IMPORT.sub("", modules()[name])) for name in order())


@cache
def version() -> str:
    """A short hash of every module: the served files' folder, so a changed renderer is fetched anew."""
    h = hashlib.sha256()
    for name, text in modules().items():
        h.update(name.encode() + b"\0" + text.encode() + b"\0")
    return h.hexdigest()[:12]
