#!/usr/bin/env python3
"""No function in src/ longer than MAX_LINES lines (signature to closing brace).
C and CUDA sources are scanned with a brace counter after comments, strings
and preprocessor lines are blanked; a top-level `{` whose preceding text ends in
`)` (optionally followed by qualifiers) opens a function; `extern "C" {` and
`namespace ... {` are transparent. Functions listed in tools/function_length_allow.txt
("path:function" lines) are reported but tolerated until someone splits them; an
entry that is no longer too long is itself a failure, so the list only shrinks.
Prints one verdict line; exit status 1 on any failure.
Usage: tools/check_function_length.py [ROOT]"""
import os
import re
import sys

MAX_LINES = 120


def blank(text):
    """Comments, string / char literals and preprocessor lines -> spaces (newlines kept)."""
    out = []
    i, n = 0, len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if at_line_start and c == "#" :
            # a preprocessor line, with its backslash continuations
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append(" \n")
                    i += 2
                    continue
                out.append(" ")
                i += 1
            continue
        if c in " \t":
            out.append(c)
            i += 1
            continue
        at_line_start = False
        if c == "\n":
            at_line_start = True
            out.append(c)
            i += 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def functions(text):
    """(name, first line, last line) of every function definition."""
    code = blank(text)
    found = []
    stack = []      # per open brace: 'fn', 'transparent' or 'other'
    depth_fn = 0    # open braces inside the current function
    header_start = 0
    current = None
    line = 1
    for i, c in enumerate(code):
        if c == "\n":
            line += 1
        if current is not None:
            if c == "{":
                depth_fn += 1
            elif c == "}":
                depth_fn -= 1
                if depth_fn == 0:
                    found.append((current[0], current[1], line))
                    current = None
                    header_start = i + 1
            continue
        if c == "{":
            header = code[header_start:i]
            if re.search(r'\bextern\s*$', header.replace('"', "")) or re.search(r"\bnamespace\b[\w\s:]*$", header) \
                    or re.search(r'extern\s+$', header):
                stack.append("transparent")
                header_start = i + 1
                continue
            m = re.search(r"(\w+)\s*\((?:[^()]|\([^()]*\))*\)\s*(?:const\s*)?$", header)
            if m and not re.search(r"\b(struct|union|enum)\b[^;]*$", header.split(";")[-1]) and "=" not in header.split(";")[-1]:
                name = m.group(1)
                # the signature starts at the first non-blank character after the previous statement
                sig = len(header) - len(header.lstrip())
                first = code.count("\n", 0, header_start + sig) + 1
                current = (name, first)
                depth_fn = 1
            else:
                stack.append("other")
        elif c == "}":
            kind = stack.pop() if stack else "other"
            header_start = i + 1
        elif c == ";" and (not stack or stack[-1] == "transparent"):
            header_start = i + 1
    return found


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    allow_path = os.path.join(root, "tools", "function_length_allow.txt")
    allow = set()
    if os.path.exists(allow_path):
        for l in open(allow_path):
            l = l.split("#")[0].strip()
            if l:
                allow.add(l)
    long_fns, fails, n = set(), [], 0
    for dirpath, _, names in sorted(os.walk(os.path.join(root, "src"))):
        for name in sorted(names):
            if not re.search(r"\.(c|h|cu|cuh)$", name):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root)
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            # CUDA's extern "C" blocks: the quotes are blanked with strings, so mark them first
            text = re.sub(r'extern\s+"C"\s*\{', "extern   {", text)
            for fn, a, b in functions(text):
                n += 1
                lines = b - a + 1
                if lines > MAX_LINES:
                    key = f"{rel}:{fn}"
                    long_fns.add(key)
                    tag = "allowed (tools/function_length_allow.txt)" if key in allow else "FAIL"
                    if key not in allow:
                        fails.append(key)
                    print(f"{tag} {rel}:{a}: {fn} is {lines} lines (limit {MAX_LINES})")
    for key in sorted(allow - long_fns):
        print(f"FAIL {key}: listed in tools/function_length_allow.txt but not over {MAX_LINES} lines: remove the entry")
        fails.append(key)
    print(f"function length: {n} functions checked, {len(long_fns)} over {MAX_LINES} lines, "
          f"{len(long_fns) - len([f for f in fails if f in long_fns])} of them allowed, {len(fails)} failure{'s' if len(fails) != 1 else ''}")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
