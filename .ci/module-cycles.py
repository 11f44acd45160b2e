#!/usr/bin/env python3
"""Fails when a crate's top-level modules import each other in a circle.

Reads each crate's src/: a top-level module (src/x.rs or src/x/) depends
on another when its code (comments and `mod tests` left out) names
`crate::other::...`, or an item the crate root re-exports from `other`.
Usage: .ci/module-cycles.py CRATE_DIR...
"""
import os
import re
import sys


def code(path):
    text = open(path).read()
    cut = text.find("#[cfg(test)]\nmod tests")
    if cut >= 0:
        text = text[:cut]
    return re.sub(r"//[^\n]*", "", text)


def graph(crate):
    src = os.path.join(crate, "src")
    modules = {}
    for root, _, files in os.walk(src):
        for name in files:
            if name.endswith(".rs"):
                rel = os.path.relpath(os.path.join(root, name), src)[:-3].split(os.sep)
                if rel[0] not in ("lib", "main"):
                    modules.setdefault(rel[0], []).append(os.path.join(root, name))
    root_file = os.path.join(src, "lib.rs")
    if not os.path.exists(root_file):
        root_file = os.path.join(src, "main.rs")
    owner = {}
    for module, items in re.findall(r"pub use ([a-z_0-9]+)::\{?([^;]*?)\}?;", code(root_file), re.S):
        for name, alias in re.findall(r"([A-Za-z_0-9]+)(?:\s+as\s+([A-Za-z_0-9]+))?", items):
            owner[alias or name] = module
    edges = {m: set() for m in modules}
    for module, files in modules.items():
        for path in files:
            text = code(path)
            names = re.findall(r"crate::([A-Za-z_][A-Za-z_0-9]*)", text)
            for group in re.findall(r"use crate::\{([^;]*)\};", text, re.S):
                names += re.findall(r"(?:^|[,{\s])([A-Za-z_][A-Za-z_0-9]*)(?=::|\s*[,}]|$)", group)
            for name in names:
                target = name if name in modules else owner.get(name)
                if target and target != module:
                    edges[module].add(target)
    return edges


def cycles(edges):
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


failed = False
for crate in sys.argv[1:]:
    for circle in cycles(graph(crate)):
        failed = True
        print(f"{crate}: modules import each other in a circle: {', '.join(circle)}")
sys.exit(1 if failed else 0)
