"""Mechanical mutants of the repository's own kernels, the same on every run (fixed seed).

Each mutant applies one to three edits a careless user, a bad merge or a code generator might
make: a line dropped, duplicated or swapped, a number, operator, type, name or tl:: function
replaced, a token dropped or inserted, a statement wrapped in control flow, a parameter renamed
to a name the launcher uses, the file cut short. Whatever the edit, tilec must answer with a
located error or with output that compiles.
"""
import random
import re

TOKEN = re.compile(r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\])*\"|[A-Za-z_]\w*(?:::\w+)*|"
                   r"\d[\w.']*|<<=|>>=|<<|>>|<=|>=|==|!=|&&|\|\||\+\+|--|->|[-+*/%&|^!~=<>?:;,.(){}\[\]]|\s+|.",
                   re.S)
NUMBERS = ["0", "1", "3", "-1", "7", "17", "1024", "4096", "65536", "1 << 30", "2147483647",
           "-2147483648", "1.5f", "0x7fffffff", "100000", "'a'", "true"]
OPERATORS = ["+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!=", "&&", "||", "&", "|",
             "^", "<<", ">>"]
TYPES = ["float", "double", "int", "unsigned", "bool", "char", "int64_t", "int8_t", "uint16_t",
         "tl::half", "tl::bfloat16", "tl::float8_e4m3", "long double", "void", "auto", "size_t"]
TL_FUNCS = ["load", "store", "arange", "zeros", "full", "sum", "max", "min", "argmax", "where",
            "exp", "log", "sqrt", "dot", "trans", "reshape", "broadcast_to", "program_id",
            "num_programs", "cdiv", "cast", "atomic_add", "cumsum", "maximum", "abs", "expand_dims",
            "split", "join", "multiple_of", "debug_barrier", "fma", "clamp"]
RESERVED = ["grid", "stream", "options", "kernel", "key", "params", "tl", "threadIdx", "blockIdx",
            "warpSize", "__shared__", "tilec", "std", "main", "x", "auto", "this", "half",
            "float4", "dim3", "cudaStream_t", "tilec_generated", "_", "mask"]
INSERTS = [";", "{", "}", "(", ")", ",", "*", "&", "const", "static", "auto", "return;",
           "break;", "continue;", "0", "template <int Q>", "#pragma unroll\n", "[[maybe_unused]]",
           "volatile", "extern \"C\"", "__syncthreads();", "throw 1;", "goto end;", "#if 0\n"]
WRAPS = [("if (true) {", "}"), ("for (int r_ = 0; r_ < 2; ++r_) {", "}"),
         ("while (false) {", "}"), ("{", "}"), ("do {", "} while (0);"),
         ("if (tl::program_id(0) == 0) {", "}"), ("for (;;) {", "break; }")]
# An edit of a tl:: template argument list: the tile sizes the user gets wrong.
SIZE_EDITS = ["{a} + 1", "{a} * 3", "{a} / 2", "{a} * 1024", "0", "-{a}", "{a} - {a}",
              "({a})", "{a} << 20", "2 * {a}"]


def tokens(text):
    return TOKEN.findall(text)


def code_indices(toks, pred):
    return [i for i, t in enumerate(toks) if not t.isspace() and not t.startswith("//")
            and not t.startswith("/*") and pred(t)]


# The include line is kept out of reach (hidden in a comment while mutating): a mutant that
# only breaks the header's name says nothing about the translator.
INCLUDE = "#include <tilec/tl.h>"
HIDDEN_INCLUDE = "/*@tilec-include@*/"


def mutate_once(text, rng):
    lines = text.split("\n")
    toks = tokens(text)
    kind = rng.choice(["delete_line", "duplicate_line", "swap_lines", "number", "operator",
                       "identifier", "delete_token", "insert_token", "type", "tl_function",
                       "truncate", "rename_param", "wrap", "size"])
    body = [i for i, l in enumerate(lines) if l.strip() and not l.lstrip().startswith("//")]
    if kind in ("delete_line", "duplicate_line", "swap_lines", "wrap") and len(body) > 1:
        i = rng.choice(body)
        if kind == "delete_line":
            del lines[i]
        elif kind == "duplicate_line":
            lines.insert(i, lines[i])
        elif kind == "swap_lines":
            j = min(i + 1, len(lines) - 1)
            lines[i], lines[j] = lines[j], lines[i]
        else:
            head, tail = rng.choice(WRAPS)
            lines[i] = head + " " + lines[i] + " " + tail
        return kind, "\n".join(lines)
    def replace(pred, choices):
        idx = code_indices(toks, pred)
        if not idx:
            return None
        i = rng.choice(idx)
        toks[i] = rng.choice(choices) if isinstance(choices, list) else choices(toks[i])
        return "".join(toks)
    out = None
    if kind == "number":
        out = replace(lambda t: t[0].isdigit(), NUMBERS)
    elif kind == "operator":
        out = replace(lambda t: t in OPERATORS, OPERATORS)
    elif kind == "identifier":
        names = sorted({t for t in toks if re.match(r"[A-Za-z_]", t) and "::" not in t})
        out = replace(lambda t: t in names, names)
    elif kind == "delete_token":
        out = replace(lambda t: True, lambda t: "")
    elif kind == "insert_token":
        out = replace(lambda t: True, lambda t: t + " " + rng.choice(INSERTS) + " ")
    elif kind == "type":
        out = replace(lambda t: t in TYPES, TYPES)
    elif kind == "tl_function":
        out = replace(lambda t: t.startswith("tl::") and t[4:] in TL_FUNCS,
                      lambda t: "tl::" + rng.choice(TL_FUNCS))
    elif kind == "truncate":
        idx = code_indices(toks, lambda t: True)
        out = "".join(toks[:rng.choice(idx)]) if idx else None
    elif kind == "rename_param":
        m = list(re.finditer(r"TILEC_KERNEL\s+void\s+\w+\s*\(([^)]*)\)", text))
        if m:
            params = re.findall(r"(\w+)\s*(?:,|$)", rng.choice(m).group(1))
            if params:
                old = rng.choice(params)
                out = re.sub(r"\b%s\b" % re.escape(old), rng.choice(RESERVED), text)
    elif kind == "size":
        m = list(re.finditer(r"tl::\w+<([^<>]*)>", text))
        if m:
            site = rng.choice(m)
            args = site.group(1).split(",")
            k = rng.randrange(len(args))
            args[k] = rng.choice(SIZE_EDITS).format(a=args[k].strip())
            out = text[:site.start(1)] + ",".join(args) + text[site.end(1):]
    return kind, out


def mutants(seeds, count, seed=17):
    """Yields (name, kinds, text) for `count` distinct mutants of the (stem, text) seeds."""
    rng = random.Random(seed)
    seen = {text for _, text in seeds}
    made = 0
    while made < count:
        stem, text = rng.choice(seeds)
        text = text.replace(INCLUDE, HIDDEN_INCLUDE)
        kinds = []
        for _ in range(rng.choice([1, 1, 2, 3])):
            kind, out = mutate_once(text, rng)
            if out is not None:
                kinds.append(kind)
                text = out
        text = text.replace(HIDDEN_INCLUDE, INCLUDE)
        if not kinds or text in seen:
            continue
        seen.add(text)
        made += 1
        yield "m%03d_%s" % (made, stem), kinds, text
