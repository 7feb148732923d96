#!/usr/bin/env python3
"""emu_xform.py SRC.cu > OUT.cpp: a CUDA source rewritten for the host C++ compiler of the kernel
emulator (docs/EMULATOR.md, "test_cuda on the emulator"). Three rewrites, nothing else:
  kern<<<grid, block[, smem[, stream]]>>>(args)  ->  emu_launch_cfg(grid, block[, ...]).run(kern, args)
  extern __shared__ [__align__(n)] T name[];      ->  T *const name = (T *)emu_smem;
  __shared__ T name[...];                         ->  static T name[...];   (one block runs at a time)
  asm volatile("ptx" : outputs : inputs)         ->  the same instruction on the emulator (emu_ptx.h's
                                                     emu_* calls): ldmatrix, cp.async and its groups,
                                                     ld / st.shared and st.global by address, mma.sync,
                                                     wgmma (A in registers or by descriptor), named
                                                     barriers (bar.sync, bar.arrive), fences and
                                                     setmaxnreg (nothing to do here), special registers.
An asm statement this does not know stays as it is: the host assembler then names it (a new form
needs a case in asm_emu below). A #line directive keeps compiler messages pointing at the .cu file."""
import re
import sys


def close_paren(src, p):
    """The index of the parenthesis that closes the one at src[p] (the kernels' strings hold none)."""
    d = 0
    while True:
        if src[p] == "(":
            d += 1
        elif src[p] == ")":
            d -= 1
            if d == 0:
                return p
        p += 1


def launches(src):
    out, i = [], 0
    while True:
        m = src.find("<<<", i)
        if m < 0:
            out.append(src[i:])
            return "".join(out)
        # the kernel expression: back from <<< over identifiers, ::, template arguments and
        # subscripts (kern[i]<<<...>>>)
        k, stack = m, []
        pairs = {">": "<", "]": "["}
        while k > 0:
            c = src[k - 1]
            if c in pairs:
                stack.append(pairs[c])
            elif stack and c == stack[-1]:
                stack.pop()
            elif not stack and not (c.isalnum() or c in "_:"):
                break
            k -= 1
        e = src.index(">>>", m + 3)
        p = e + 3
        while src[p].isspace():
            p += 1
        if src[p] != "(":
            sys.exit(f"emu_xform: no argument list after a launch at offset {m}")
        q = close_paren(src, p)
        out.append(src[i:k])
        args = src[p + 1:q].strip()
        out.append(f"emu_launch_cfg({src[m + 3:e]}).run({src[k:m]}" + (f", {args})" if args else ")"))
        i = q + 1


def split_top(text, sep):
    """Splits at sep outside parentheses, brackets, braces and string literals."""
    parts, depth, cur, q, i = [], 0, [], None, 0
    while i < len(text):
        c = text[i]
        if q:
            cur.append(c)
            if c == "\\":
                cur.append(text[i + 1])
                i += 1
            elif c == q:
                q = None
        elif c in "\"'":
            q = c
            cur.append(c)
        elif c in "([{":
            depth += 1
            cur.append(c)
        elif c in ")]}":
            depth -= 1
            cur.append(c)
        elif c == sep and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(c)
        i += 1
    parts.append("".join(cur))
    return parts


def operands(sec):
    """[(constraint, expression)] of one operand section."""
    out = []
    for op in split_top(sec, ","):
        op = op.strip()
        if not op:
            continue
        m = re.match(r'^"([^"]*)"\s*\((.*)\)$', op, re.S)
        if not m:
            raise ValueError(f"operand {op!r}")
        out.append((m.group(1), m.group(2).strip()))
    return out


def asm_emu(body):
    """The emulator's statement for one asm statement's parenthesised body, or None."""
    secs = split_top(body, ":")
    tmpl = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', secs[0])).replace("\\n", "\n").replace("%%", "%")
    outs = operands(secs[1]) if len(secs) > 1 else []
    ins = operands(secs[2]) if len(secs) > 2 else []
    ops = [e for _, e in outs] + [e for _, e in ins]
    cons = [c for c, _ in outs] + [c for c, _ in ins]

    def op(ref):  # %N or an immediate
        ref = ref.strip()
        if ref.startswith("%"):
            i = int(ref[1:])
            return f"({ops[i]})"
        return ref

    def regs(lst):  # {%a, %b, ...} -> operand expressions
        return [op(x) for x in lst.strip().strip("{}").split(",") if x.strip()]

    t = " ".join(tmpl.replace("\n", " ").split())
    if t == "":
        return "(void)0;"
    if re.match(r"^(fence\.proxy\.async|fence\.mbarrier_init|setmaxnreg)", t):
        return "(void)0;"
    m = re.match(r"^ldmatrix\.sync\.aligned\.m8n8\.x(\d)(\.trans)?\.shared\.b16 (\{[^}]*\}), \[(%\d+)\];?$", t)
    if m:
        n, tr, rs = int(m.group(1)), 1 if m.group(2) else 0, regs(m.group(3))
        sets = " ".join(f"{r} = r_[{i}];" for i, r in enumerate(rs))
        return f"{{ uint32_t r_[4]; emu_ldmatrix(r_, emu_smem + (uint32_t){op(m.group(4))}, {n}, {tr}); {sets} }}"
    m = re.match(r"^cp\.async\.c[ag]\.shared\.global \[(%\d+)\], \[(%\d+)\], (\d+)(?:, (%\d+))?;?$", t)
    if m:
        size = m.group(3)
        src_bytes = op(m.group(4)) if m.group(4) else size
        return f"emu_cp_async(emu_smem + (uint32_t){op(m.group(1))}, (const void *){op(m.group(2))}, {size}, {src_bytes});"
    if re.match(r"^cp\.async\.commit_group;?$", t):
        return "emu_cp_commit();"
    m = re.match(r"^cp\.async\.wait_group (%?\w+);?$", t)
    if m:
        return f"emu_cp_wait({op(m.group(1))});"
    if re.match(r"^cp\.async\.wait_all;?$", t):
        return "emu_cp_wait(0);"
    m = re.match(r"^st\.global\.v(\d)\.(b32|f32) \[(%\d+)\], (\{[^}]*\});?$", t)
    if m:
        n, ty, vs = int(m.group(1)), "uint32_t" if m.group(2) == "b32" else "float", regs(m.group(4))
        return f"{{ {ty} v_[{n}] = {{{', '.join(vs)}}}; memcpy((void *){op(m.group(3))}, v_, sizeof v_); }}"
    m = re.match(r"^ld\.shared(?:\.v(\d))?\.(b32|f32) (\{[^}]*\}|%\d+), \[(%\d+)\];?$", t)
    if m:
        n, ty = int(m.group(1) or 1), "uint32_t" if m.group(2) == "b32" else "float"
        rs = regs(m.group(3)) if m.group(3).startswith("{") else [op(m.group(3))]
        sets = " ".join(f"{r} = v_[{i}];" for i, r in enumerate(rs))
        return f"{{ {ty} v_[{n}]; memcpy(v_, emu_smem_ptr((uint32_t){op(m.group(4))}, sizeof v_), sizeof v_); {sets} }}"
    m = re.match(r"^st\.shared(?:\.v(\d))?\.(b32|f32) \[(%\d+)\], (\{[^}]*\}|%\d+);?$", t)
    if m:
        n, ty = int(m.group(1) or 1), "uint32_t" if m.group(2) == "b32" else "float"
        vs = regs(m.group(4)) if m.group(4).startswith("{") else [op(m.group(4))]
        return f"{{ {ty} v_[{n}] = {{{', '.join(vs)}}}; memcpy(emu_smem_ptr((uint32_t){op(m.group(3))}, sizeof v_), v_, sizeof v_); }}"
    m = re.match(r"^bar\.(sync|arrive) (%?\w+), (%?\w+);?$", t)
    if m:
        fn = "emu_named_bar" if m.group(1) == "sync" else "emu_named_arrive"
        return f"{fn}((int){op(m.group(2))}, (int){op(m.group(3))});"
    m = re.match(r"^mma\.sync\.aligned\.m16n8k(8|16)\.row\.col\.f32\.bf16\.bf16\.f32 (\{[^}]*\}), (\{[^}]*\}), (\{[^}]*\}), (\{[^}]*\});?$", t)
    if m:
        c, a, b = regs(m.group(2)), regs(m.group(3)), regs(m.group(4))
        sets = " ".join(f"{r} = c_[{i}];" for i, r in enumerate(c))
        if m.group(1) == "8":
            call = f"emu_mma1688(c_, {a[0]}, {a[1]}, {b[0]});"
        else:
            call = f"{{ uint32_t a_[4] = {{{', '.join(a)}}}; emu_mma16816(c_, a_, {b[0]}, {b[1]}); }}"
        return f"{{ float c_[4] = {{{', '.join(c)}}}; {call} {sets} }}"
    m = re.match(r"^wgmma\.mma_async\.sync\.aligned\.m64n(\d+)k16\.f32\.bf16\.bf16 (\{[^}]*\}), (\{[^}]*\}|%\d+), (%\d+), (\w+|%\d+), 1, 1(?:, (\d))?(?:, (\d))?;?$", t)
    if m:
        n, d = int(m.group(1)), regs(m.group(2))
        base = re.match(r"^\((.*)\[0\]\)$", d[0])
        if not base or any(x != f"({base.group(1)}[{i}])" for i, x in enumerate(d)):
            raise ValueError(f"wgmma accumulators not one array: {d[:2]}")
        sd = m.group(5)
        sd = "1" if sd == "p" else op(sd)
        if m.group(3).startswith("{"):
            a = regs(m.group(3))
            tb = m.group(6) or "0"
            return (f"{{ uint32_t a_[4] = {{{', '.join(a)}}}; emu_wgmma({base.group(1)}, a_, (uint64_t){op(m.group(4))}, "
                    f"{n}, {sd}, {tb}); }}")
        ta, tb = m.group(6) or "0", m.group(7) or "0"
        return f"emu_wgmma_ss({base.group(1)}, (uint64_t){op(m.group(3))}, (uint64_t){op(m.group(4))}, {n}, {sd}, {ta}, {tb});"
    m = re.match(r"^mov\.u32 (%\d+), %ctaid\.x;?$", t)
    if m:
        return f"{op(m.group(1))} = emu_bix.x;"
    return None


ASM = re.compile(r"\basm\s*(?:volatile\s*)?\(")


def asm_sites(src):
    out, i = [], 0
    while True:
        m = ASM.search(src, i)
        if not m:
            out.append(src[i:])
            return "".join(out)
        p = m.end() - 1
        q = close_paren(src, p)
        end = q + 1
        while end < len(src) and src[end].isspace():
            end += 1
        rep = None
        if end < len(src) and src[end] == ";":
            try:
                rep = asm_emu(src[p + 1:q])
            except ValueError as e:
                sys.exit(f"emu_xform: {e}")
        if rep is None:
            out.append(src[i:q + 1])
            i = q + 1
        else:
            out.append(src[i:m.start()] + rep)
            i = end + 1


EXTERN = re.compile(r"extern\s+__shared__\s+(?:__align__\(\s*\d+\s*\)\s+)?([A-Za-z_][\w\s]*?)\s+(\w+)\s*\[\s*\]\s*;")
STATIC = re.compile(r"(?<![\w])__shared__(?=\s)")
# A statement declaring static __shared__ arrays: [__align__(n)] TYPE name[dims] (, name[dims])* ;
STATIC_DECL = re.compile(r"(?<![\w])__shared__\s+(?:__align__\(\s*\d+\s*\)\s+)?([A-Za-z_]\w*)\s+([^;{}]+?);")
DECLARATOR = re.compile(r"^\s*(\w+)\s*((?:\[[^\]]+\]\s*)+)$")


def static_arrays(src, path):
    """Each static __shared__ array declaration -> a reference into the emulator's shared memory
    (emu_static_smem, emu/emu_ptx.h), one place per site: cp.async and ldmatrix need shared addresses."""
    def rep(m):
        typ, decls = m.group(1), m.group(2)
        parts, depth, cur = [], 0, ""
        for ch in decls:
            if ch == "," and depth == 0:
                parts.append(cur)
                cur = ""
                continue
            depth += ch == "["
            depth -= ch == "]"
            cur += ch
        parts.append(cur)
        line = src.count("\n", 0, m.start()) + 1
        out = []
        for d in parts:
            dm = DECLARATOR.match(d)
            if not dm:
                return m.group(0)  # not an array declaration: left to STATIC
            name, dims = dm.group(1), re.sub(r"\s+", "", dm.group(2))
            out.append(f'{typ}(&{name}){dims} = emu_static_smem<{typ}{dims}>("{path}:{line}:{name}");')
        return " ".join(out)
    return STATIC_DECL.sub(rep, src)


def main():
    path = sys.argv[1]  # a .cu, .cuh or .h of src/cuda
    src = open(path, encoding="utf-8").read()
    src = launches(src)
    src = asm_sites(src)
    src = EXTERN.sub(lambda m: f"{m.group(1)} *const {m.group(2)} = ({m.group(1)} *)emu_smem;", src)
    src = static_arrays(src, path)
    src = STATIC.sub("static", src)
    sys.stdout.write(f'#line 1 "{path}"\n' + src)


if __name__ == "__main__":
    main()
