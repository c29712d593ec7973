#!/usr/bin/env python3
"""Fails when an #include goes against the module graph declared in src/CMakeLists.txt, or when
README.md's module list ("Modules and what each may use") says something else than that graph.

Each `brec_add_module(NAME DEPS a b ...)` line declares what module NAME may use. A source or
public header of module M (src/M/..., include/brec/M/...) may include the public headers of M and
of every module M reaches through DEPS (transitively), and the private headers of M itself
(src/M/...). Anything else is a dependency the build graph does not declare.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
MODULE_LINE = re.compile(r"brec_add_module\(\s*(\w+)(.*?)\)", re.S)
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def declared_modules():
    text = (ROOT / "src" / "CMakeLists.txt").read_text()
    deps = {}
    for name, rest in MODULE_LINE.findall(text):
        words = rest.split()
        listed = []
        if "DEPS" in words:
            for w in words[words.index("DEPS") + 1:]:
                if w.isupper():
                    break
                listed.append(w)
        deps[name] = listed
    return deps


def readme_modules():
    """The module list of README.md: "name (what it is) → dep, dep; name; ..." up to the first '.'
    that ends the list (the paragraph's sentence after it is prose)."""
    text = (ROOT / "README.md").read_text()
    start = text.find("Modules and what each may use")
    if start < 0:
        return None
    body = text[text.index("):", start) + 2:]
    body = body[:body.index(". ")] if ". " in body else body
    body = re.sub(r"\([^)]*\)", "", body)  # descriptions in parentheses
    listed = {}
    for item in body.split(";"):
        name, _, rest = item.partition("→")
        listed[name.strip()] = [d.strip() for d in rest.split(",") if d.strip()]
    return listed


def closure(deps):
    reach = {}

    def visit(m, stack):
        if m in reach:
            return reach[m]
        if m in stack:
            sys.exit(f"check_includes: cycle in src/CMakeLists.txt through {m}")
        out = {m}
        for d in deps.get(m, []):
            if d not in deps:
                sys.exit(f"check_includes: module {m} depends on undeclared module {d}")
            out |= visit(d, stack | {m})
        reach[m] = out
        return out

    for m in deps:
        visit(m, set())
    return reach


def module_of(path):
    rel = path.relative_to(ROOT).parts
    if rel[0] == "src" and len(rel) > 2:
        return rel[1]
    if rel[:2] == ("include", "brec") and len(rel) > 3:
        return rel[2]
    return None


def main():
    deps = declared_modules()
    reach = closure(deps)
    problems = []
    files = list((ROOT / "src").rglob("*.[ch]pp")) + list((ROOT / "include" / "brec").rglob("*.hpp"))
    for f in sorted(files):
        m = module_of(f)
        if m is None:
            continue
        if m not in deps:
            problems.append(f"{f.relative_to(ROOT)}: module '{m}' is not declared in src/CMakeLists.txt")
            continue
        text = f.read_text(errors="replace")
        for lineno, line in enumerate(text.splitlines(), 1):
            hit = INCLUDE.match(line)
            if not hit:
                continue
            inc = hit.group(1)
            parts = inc.split("/")
            if parts[0] == "brec" and len(parts) > 2:
                target, private = parts[1], False
            elif parts[0] in deps and len(parts) > 1:
                target, private = parts[0], True  # src/<module>/... private header
            else:
                continue  # a header next to the file or outside the module tree
            if private and target != m:
                problems.append(f"{f.relative_to(ROOT)}:{lineno}: includes private header {inc} of module '{target}'")
            elif target not in reach[m]:
                problems.append(f"{f.relative_to(ROOT)}:{lineno}: module '{m}' includes {inc}, but '{target}' is not "
                                f"among its dependencies ({', '.join(sorted(reach[m] - {m})) or 'none'})")
    listed = readme_modules()
    if listed is None:
        problems.append("README.md: no module list (\"Modules and what each may use\")")
    else:
        for m in sorted(set(deps) | set(listed)):
            if m not in listed:
                problems.append(f"README.md: the module list omits '{m}'")
            elif m not in deps:
                problems.append(f"README.md: the module list names '{m}', which src/CMakeLists.txt does not declare")
            elif sorted(listed[m]) != sorted(deps[m]):
                problems.append(f"README.md: the module list gives '{m}' → {', '.join(listed[m]) or 'nothing'}; "
                                f"src/CMakeLists.txt: {', '.join(deps[m]) or 'nothing'}")
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        print(f"check_includes: {len(problems)} problem(s) with the module graph of src/CMakeLists.txt", file=sys.stderr)
        return 1
    print(f"check_includes: {len(files)} files follow the module graph ({len(deps)} modules)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
