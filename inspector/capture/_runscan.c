/* A recording scrub's recurring cut in one pass over the piece (inspector/capture/redact.py).

   A fast stream's network chunk is a run of deltas of one streamed field,
       head "text":"body" AFTER "text":"body" AFTER ... "text":"last...
   where AFTER (``'"' + after``, the value's closing quote and the text up to the next opening) recurs.
   ``ChunkScrubber._cut`` proves such a chunk from its bodies alone; in Python, finding them is
   ``str.split`` at the opening, a ``removesuffix`` per part, a join and whole-text passes over the
   result (~9 µs per 8 KB chunk of 64 deltas), then ``records.chunk_line`` joins and escapes them
   again for the record. ``recurring_cut`` does both in one pass over the characters, and never
   decides anything the Python would not: it returns None whenever it cannot answer (the caller then
   runs the Python), so a None is never wrong, only slower. tests/unit/test_runscan.py holds the two
   equal over generated pieces.

   Built by hatch_build.py when a C compiler is at hand; without it the Python does the work. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define INLINE static inline __attribute__((always_inline))
#else
#define INLINE static inline
#endif

/* An opening is ``"name"\s*:\s*"``; a longer one (white space on a stranger's scale) goes to the
   Python, whose search has no worst case in the needle's length (ours compares it at each candidate). */
#define MAX_OPENING 64

/* How far the Python looks for a backslash before the closing (``"\\" + closing[:8] in text``). */
#define CLOSING_PROBE 8

/* A needle (the opening or the closing) in the text's character width or narrower. */
typedef struct {
    int kind;
    const void *data;
    Py_ssize_t len;
} Needle;

/* A body: text[a:b]. Pieces of up to STACK_SPANS values (the common chunk) need no allocation. */
typedef struct {
    Py_ssize_t a, b;
} Span;

#define STACK_SPANS 256

typedef struct {
    Span *v;
    Py_ssize_t n, cap;
    Span stack[STACK_SPANS];
} Spans;

INLINE int
spans_push(Spans *s, Py_ssize_t a, Py_ssize_t b)
{
    if (s->n == s->cap) {
        if (s->cap > PY_SSIZE_T_MAX / 2 / (Py_ssize_t)sizeof(Span)) {
            PyErr_NoMemory();
            return -1;
        }
        Py_ssize_t cap = s->cap * 2;
        Span *v = s->v == s->stack ? PyMem_Malloc(cap * sizeof(Span)) : PyMem_Realloc(s->v, cap * sizeof(Span));
        if (v == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        if (s->v == s->stack)
            memcpy(v, s->stack, sizeof(s->stack));
        s->v = v;
        s->cap = cap;
    }
    s->v[s->n].a = a;
    s->v[s->n].b = b;
    s->n++;
    return 0;
}

/* The functions below take the text's ``kind`` (1, 2 or 4 bytes a character); ``scan`` is called
   with a constant one, so each is compiled three times without the width test in its loops. */

INLINE Py_UCS4
at(int kind, const void *d, Py_ssize_t i)
{
    return kind == PyUnicode_1BYTE_KIND ? ((const Py_UCS1 *)d)[i]
         : kind == PyUnicode_2BYTE_KIND ? ((const Py_UCS2 *)d)[i] : ((const Py_UCS4 *)d)[i];
}

/* text[i:i+m] == p[j:j+m] (the caller keeps both in bounds). */
INLINE int
same(int kind, const void *s, Py_ssize_t i, const Needle *p, Py_ssize_t j, Py_ssize_t m)
{
    if (p->kind == kind)
        return memcmp((const char *)s + i * kind, (const char *)p->data + j * kind, (size_t)(m * kind)) == 0;
    for (Py_ssize_t k = 0; k < m; k++)
        if (at(kind, s, i + k) != at(p->kind, p->data, j + k))
            return 0;
    return 1;
}

/* The first ``c`` in text[from:n], or -1 (``c`` fits ``kind``: the caller's needles do). */
INLINE Py_ssize_t
find_char(int kind, const void *s, Py_ssize_t n, Py_ssize_t from, Py_UCS4 c)
{
    if (from >= n)
        return -1;
    if (kind == PyUnicode_1BYTE_KIND) {
        const Py_UCS1 *p = memchr((const Py_UCS1 *)s + from, (int)c, (size_t)(n - from));
        return p == NULL ? -1 : p - (const Py_UCS1 *)s;
    }
    for (Py_ssize_t i = from; i < n; i++)
        if (at(kind, s, i) == c)
            return i;
    return -1;
}

/* The first ``p`` in text[from:n], or -1, as ``str.find`` (``p`` not empty). */
INLINE Py_ssize_t
find(int kind, const void *s, Py_ssize_t n, Py_ssize_t from, const Needle *p)
{
    Py_UCS4 first = at(p->kind, p->data, 0);
    Py_ssize_t last = n - p->len; /* the last place it may start */
    while (from <= last) {
        Py_ssize_t i = find_char(kind, s, last + 1, from, first);
        if (i < 0)
            return -1;
        if (same(kind, s, i + 1, p, 1, p->len - 1))
            return i;
        from = i + 1;
    }
    return -1;
}

/* Whether the next opening after a body is found by its closing quote: true when the opening
   begins with ``"`` (none can start before the body's first quote, which a body without quotes
   closes at) and ``closing + opening`` holds no opening starting inside the closing (a text that
   matches them at that quote then holds its first opening right after the closing). */
static int
shortcut_ok(const Needle *op, const Needle *cl)
{
    if (at(op->kind, op->data, 0) != '"')
        return 0;
    for (Py_ssize_t i = 0; i < cl->len; i++) {
        if (at(cl->kind, cl->data, i) != '"')
            continue; /* an opening starts with a quote */
        Py_ssize_t k = 1;
        for (; k < op->len; k++) {
            Py_ssize_t j = i + k;
            Py_UCS4 c = j < cl->len ? at(cl->kind, cl->data, j) : at(op->kind, op->data, j - cl->len);
            if (c != at(op->kind, op->data, k))
                break;
        }
        if (k == op->len)
            return 0;
    }
    return 1;
}

/* ``text.split(opening)`` as ``redact._cut_at_recurring`` reads it: every part but the first and the
   last ends in the closing (its body is the part less it), at least two do. 1 with the bodies in
   ``out``, where the first opening starts and where the last part starts; 0 when not such a run;
   -1 with an exception set. */
INLINE int
scan(int kind, const void *s, Py_ssize_t n, const Needle *op, const Needle *cl, int shortcut, Spans *out,
     Py_ssize_t *start, Py_ssize_t *end)
{
    Py_ssize_t pos = find(kind, s, n, 0, op);
    if (pos < 0)
        return 0;
    *start = pos;
    for (;;) {
        Py_ssize_t part = pos + op->len, next = -1, q = -1;
        if (shortcut) {
            q = find_char(kind, s, n, part, '"');
            if (q >= 0 && q <= n - cl->len - op->len && same(kind, s, q, cl, 0, cl->len)
                && same(kind, s, q + cl->len, op, 0, op->len))
                next = q + cl->len; /* the part ends in the closing: just compared */
            else if (q >= 0) /* a quote inside the body (escaped), or the run ends here */
                next = find(kind, s, n, part, op);
            /* else no quote left: no opening */
        } else {
            next = find(kind, s, n, part, op);
        }
        if (next < 0) {
            *end = part;
            break;
        }
        if (next != q + cl->len && (next - part < cl->len || !same(kind, s, next - cl->len, cl, 0, cl->len)))
            return 0; /* a part not ending in the closing */
        if (spans_push(out, part, next - cl->len) < 0)
            return -1;
        pos = next;
    }
    return out->n >= 2;
}

/* What the bodies, read as one text (``joined``), hold; ``redact._cut_at_recurring``'s proofs. */
typedef struct {
    Py_ssize_t size;  /* characters */
    Py_ssize_t utf8;  /* bytes of its UTF-8 */
    Py_UCS4 max;      /* at least its widest character, in the same width class (0x7F, 0xFF, 0xFFFF):
                         the str made of it is as narrow as Python's own would be */
    int backslash;    /* it holds a ``\`` */
    int loose_quote;  /* a ``"`` after an even run of backslashes (none counts): the value ends there */
    int escaped;      /* JSON escapes something in it (``"``, ``\``, U+0000-U+001F, as orjson does), or
                         it holds a surrogate (no UTF-8): the record is not written from the bodies */
} Bodies;

/* Characters JSON escapes or a proof must look at (``"``, ``\``, U+0000-U+001F), and surrogates. */
INLINE int
special(Py_UCS4 c)
{
    return c < 0x20 || c == '"' || c == '\\' || (c >= 0xD800 && c <= 0xDFFF);
}

/* special() of each Latin-1 character, for the quick pass over the common (1-byte) text. */
static unsigned char SPECIAL1[256];

/* ``plain = joined.replace("\\\\", "")`` then ``plain.count('"') == plain.count('\\"')`` is "every
   quote follows an odd run of backslashes": each run of k backslashes leaves k % 2 of them, and each
   ``\"`` holds one quote. The run is carried from body to body as in the joined text. The common
   bodies (short prose) hold none of these: one quick pass says so, the second runs only if not. */
INLINE void
read_bodies(int kind, const void *s, const Spans *sp, Bodies *r)
{
    Py_UCS4 bits = 0; /* the OR of the characters: at or above 0x80, 0x100, 0x10000 as the widest is */
    int odd = 0;
    memset(r, 0, sizeof(*r));
    for (Py_ssize_t k = 0; k < sp->n; k++) {
        Py_ssize_t a = sp->v[k].a, b = sp->v[k].b;
        r->size += b - a;
        if (kind == PyUnicode_1BYTE_KIND) {
            const Py_UCS1 *p = (const Py_UCS1 *)s;
            unsigned char odd1 = 0, bits1 = 0;
            for (Py_ssize_t i = a; i < b; i++) {
                bits1 |= p[i];
                odd1 |= SPECIAL1[p[i]];
            }
            bits |= bits1;
            odd |= odd1;
            continue;
        }
        for (Py_ssize_t i = a; i < b; i++) {
            Py_UCS4 c = at(kind, s, i);
            bits |= c;
            odd |= special(c);
        }
    }
    r->max = bits > 0xFFFF ? 0x10FFFF : bits; /* an OR of astral characters may pass the last one */
    r->utf8 = r->size;
    if (!odd && bits < 0x80)
        return;
    Py_ssize_t run = 0, utf8 = 0;
    for (Py_ssize_t k = 0; k < sp->n; k++) {
        for (Py_ssize_t i = sp->v[k].a; i < sp->v[k].b; i++) {
            Py_UCS4 c = at(kind, s, i);
            utf8 += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
            if (c == '\\') {
                r->backslash = r->escaped = 1;
                run++;
                continue;
            }
            if (c == '"') {
                if (run % 2 == 0)
                    r->loose_quote = 1;
                r->escaped = 1;
            } else if (special(c)) {
                r->escaped = 1;
            }
            run = 0;
        }
    }
    r->utf8 = utf8;
}

/* ``"\\" + closing[:8] in text``: a body may end in a backslash that escapes its closing quote. */
INLINE int
backslash_closes(int kind, const void *s, Py_ssize_t n, const Needle *cl)
{
    Py_ssize_t m = cl->len < CLOSING_PROBE ? cl->len : CLOSING_PROBE;
    for (Py_ssize_t i = find_char(kind, s, n, 0, '\\'); i >= 0; i = find_char(kind, s, n, i + 1, '\\'))
        if (i + 1 + m <= n && same(kind, s, i + 1, cl, 0, m))
            return 1;
    return 0;
}

/* The bodies joined, as the narrowest str that holds them (as Python's own strings are). */
static PyObject *
joined_str(int kind, const void *s, const Spans *sp, const Bodies *r)
{
    PyObject *out = PyUnicode_New(r->size, r->max);
    if (out == NULL)
        return NULL;
    int okind = PyUnicode_KIND(out);
    void *od = PyUnicode_DATA(out);
    Py_ssize_t w = 0;
    for (Py_ssize_t k = 0; k < sp->n; k++) {
        Py_ssize_t a = sp->v[k].a, len = sp->v[k].b - a;
        if (okind == kind) {
            memcpy((char *)od + w * kind, (const char *)s + a * kind, (size_t)(len * kind));
        } else {
            for (Py_ssize_t i = 0; i < len; i++)
                PyUnicode_WRITE(okind, od, w + i, at(kind, s, a + i));
        }
        w += len;
    }
    return out;
}

/* ``between.join(bodies).encode("utf-8")`` (the bodies hold no surrogate: ``Bodies.escaped``). */
static PyObject *
middle_bytes(int kind, const void *s, const Spans *sp, const Bodies *r, const char *between, Py_ssize_t lb)
{
    Py_ssize_t gaps = sp->n - 1;
    if (lb > 0 && gaps > (PY_SSIZE_T_MAX - r->utf8) / lb)
        return PyErr_NoMemory();
    PyObject *out = PyBytes_FromStringAndSize(NULL, r->utf8 + gaps * lb);
    if (out == NULL)
        return NULL;
    unsigned char *w = (unsigned char *)PyBytes_AS_STRING(out);
    for (Py_ssize_t k = 0; k < sp->n; k++) {
        Py_ssize_t a = sp->v[k].a, b = sp->v[k].b;
        if (k > 0) {
            memcpy(w, between, (size_t)lb);
            w += lb;
        }
        if (kind == PyUnicode_1BYTE_KIND && r->max < 0x80) { /* ASCII: its UTF-8 is itself */
            memcpy(w, (const Py_UCS1 *)s + a, (size_t)(b - a));
            w += b - a;
            continue;
        }
        for (Py_ssize_t i = a; i < b; i++) {
            Py_UCS4 c = at(kind, s, i);
            if (c < 0x80) {
                *w++ = (unsigned char)c;
            } else if (c < 0x800) {
                *w++ = (unsigned char)(0xC0 | (c >> 6));
                *w++ = (unsigned char)(0x80 | (c & 0x3F));
            } else if (c < 0x10000) {
                *w++ = (unsigned char)(0xE0 | (c >> 12));
                *w++ = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
                *w++ = (unsigned char)(0x80 | (c & 0x3F));
            } else {
                *w++ = (unsigned char)(0xF0 | (c >> 18));
                *w++ = (unsigned char)(0x80 | ((c >> 12) & 0x3F));
                *w++ = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
                *w++ = (unsigned char)(0x80 | (c & 0x3F));
            }
        }
    }
    return out;
}

/* The cut of one text kind: 1 found (``*found`` the result tuple), 0 not a run, -1 an exception. */
INLINE int
cut_kind(int kind, PyObject *text, const Needle *op, const Needle *cl, PyObject *between, PyObject **found)
{
    const void *s = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), start = 0, end = 0;
    Spans sp;
    sp.v = sp.stack;
    sp.n = 0;
    sp.cap = STACK_SPANS;
    Bodies r;
    int rc = scan(kind, s, n, op, cl, shortcut_ok(op, cl), &sp, &start, &end);
    if (rc <= 0)
        goto done;
    read_bodies(kind, s, &sp, &r);
    if (r.loose_quote || (r.backslash && backslash_closes(kind, s, n, cl))) {
        rc = 0;
        goto done;
    }
    PyObject *joined = joined_str(kind, s, &sp, &r);
    PyObject *last = joined == NULL ? NULL : PyUnicode_Substring(text, end, n);
    PyObject *middle = NULL;
    if (last != NULL) {
        if (r.escaped || between == Py_None)
            middle = Py_NewRef(Py_None);
        else
            middle = middle_bytes(kind, s, &sp, &r, PyBytes_AS_STRING(between), PyBytes_GET_SIZE(between));
    }
    if (middle == NULL) {
        Py_XDECREF(joined);
        Py_XDECREF(last);
        rc = -1;
        goto done;
    }
    *found = Py_BuildValue("(nNNN)", start, joined, last, middle); /* steals the three */
    rc = *found == NULL ? -1 : 1;
done:
    if (sp.v != sp.stack)
        PyMem_Free(sp.v);
    return rc;
}

/* ``keyshapes.maybe_key``: any of ``keyshapes.PREFIXES`` in the text (``sk-``, ``glpat-``, ``xox?-``,
   ``AIza``, ``AKIA``, ``ASIA``, ``gh?_``, ``github_pat_``, ``hf_``, ``eyJ``), or ``earer`` or ``basic`` in
   ``text.lower()``. Only ASCII letters lower to these (U+0130 lowers to ``i`` and U+0307, which no
   prefix goes on with; tests/unit/test_runscan.py checks every code point), so an ASCII test of the
   case is the same. Each prefix is looked for at its rarest character, one pass, no lowered copy. */
#define KEY_STARTS "-A_JeEbB" /* the characters a test starts at */
static unsigned char KEYCHAR1[256]; /* KEY_STARTS as a table */

INLINE int
lower_is(Py_UCS4 c, char want)
{
    return (c | 0x20) == (Py_UCS4)want; /* true only for the ASCII letter ``want`` in either case */
}

/* text[i:i+m] == word (``text`` long enough: the caller checks). */
INLINE int
is_at(int kind, const void *s, Py_ssize_t i, const char *word, Py_ssize_t m)
{
    for (Py_ssize_t k = 0; k < m; k++)
        if (at(kind, s, i + k) != (Py_UCS4)(unsigned char)word[k])
            return 0;
    return 1;
}

INLINE int
key_at(int kind, const void *s, Py_ssize_t n, Py_ssize_t i, Py_UCS4 c)
{
    switch (c) {
    case '-': /* sk-  glpat-  xox[abposr]- */
        if (i >= 2 && is_at(kind, s, i - 2, "sk", 2))
            return 1;
        if (i >= 5 && is_at(kind, s, i - 5, "glpat", 5))
            return 1;
        if (i >= 4 && is_at(kind, s, i - 4, "xox", 3)) {
            Py_UCS4 d = at(kind, s, i - 1);
            return d == 'a' || d == 'b' || d == 'p' || d == 'o' || d == 's' || d == 'r';
        }
        return 0;
    case 'A': /* AIza  AKIA  ASIA */
        return i + 4 <= n && (is_at(kind, s, i + 1, "Iza", 3) || is_at(kind, s, i + 1, "KIA", 3)
                              || is_at(kind, s, i + 1, "SIA", 3));
    case '_': /* hf_  gh[pousr]_  github_pat_ */
        if (i >= 2 && is_at(kind, s, i - 2, "hf", 2))
            return 1;
        if (i >= 3 && is_at(kind, s, i - 3, "gh", 2)) {
            Py_UCS4 d = at(kind, s, i - 1);
            if (d == 'p' || d == 'o' || d == 'u' || d == 's' || d == 'r')
                return 1;
        }
        return i >= 6 && i + 5 <= n && is_at(kind, s, i - 6, "github", 6) && is_at(kind, s, i + 1, "pat_", 4);
    case 'J': /* eyJ */
        return i >= 2 && is_at(kind, s, i - 2, "ey", 2);
    case 'e':
    case 'E': /* earer, any case */
        return i + 5 <= n && lower_is(at(kind, s, i + 1), 'a') && lower_is(at(kind, s, i + 2), 'r')
               && lower_is(at(kind, s, i + 3), 'e') && lower_is(at(kind, s, i + 4), 'r');
    case 'b':
    case 'B': /* basic, any case */
        return i + 5 <= n && lower_is(at(kind, s, i + 1), 'a') && lower_is(at(kind, s, i + 2), 's')
               && lower_is(at(kind, s, i + 3), 'i') && lower_is(at(kind, s, i + 4), 'c');
    }
    return 0;
}

INLINE int
has_key_prefix(int kind, const void *s, Py_ssize_t n)
{
    if (kind == PyUnicode_1BYTE_KIND) {
        const Py_UCS1 *p = (const Py_UCS1 *)s;
        if (p[n] == 0) { /* a str's data ends in a NUL: ``strcspn`` (SIMD in glibc) skips to the next start */
            for (Py_ssize_t i = (Py_ssize_t)strcspn((const char *)p, KEY_STARTS); i < n;
                 i += 1 + (Py_ssize_t)strcspn((const char *)p + i + 1, KEY_STARTS))
                if (p[i] != 0 && key_at(kind, s, n, i, p[i])) /* a NUL inside the text stops it too */
                    return 1;
            return 0;
        }
        for (Py_ssize_t i = 0; i < n; i++)
            if (KEYCHAR1[p[i]] && key_at(kind, s, n, i, p[i]))
                return 1;
        return 0;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = at(kind, s, i);
        if (c < 256 && KEYCHAR1[c] && key_at(kind, s, n, i, c))
            return 1;
    }
    return 0;
}

PyDoc_STRVAR(maybe_key_doc,
"maybe_key(text, /) -> bool\n\n"
"``keyshapes.maybe_key(text)``: whether ``text`` holds one of ``keyshapes.PREFIXES`` (``earer`` and\n"
"``basic`` in any case), in one pass.");

static PyObject *
maybe_key(PyObject *Py_UNUSED(module), PyObject *text)
{
    if (!PyUnicode_Check(text)) {
        PyErr_SetString(PyExc_TypeError, "maybe_key(): text must be str");
        return NULL;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(text) < 0)
        return NULL;
#endif
    int kind = PyUnicode_KIND(text);
    const void *s = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    int found = kind == PyUnicode_1BYTE_KIND ? has_key_prefix(PyUnicode_1BYTE_KIND, s, n)
              : kind == PyUnicode_2BYTE_KIND ? has_key_prefix(PyUnicode_2BYTE_KIND, s, n)
              : has_key_prefix(PyUnicode_4BYTE_KIND, s, n);
    return PyBool_FromLong(found);
}

/* A str as a needle in ``kind``: 0 when it cannot occur in such a text (wider), -1 an exception. */
static int
needle(PyObject *str, int kind, Needle *out)
{
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(str) < 0)
        return -1;
#endif
    out->kind = PyUnicode_KIND(str);
    out->data = PyUnicode_DATA(str);
    out->len = PyUnicode_GET_LENGTH(str);
    return out->kind <= kind;
}

PyDoc_STRVAR(recurring_cut_doc,
"recurring_cut(text, opening, closing, between, /) -> (start, joined, end, middle) | None\n\n"
"``text.split(opening)`` read as ``redact._cut_at_recurring`` reads it, in one pass: ``start`` where the\n"
"first opening is (``len(parts[0])``), ``joined`` the bodies of the parts but the first and the last\n"
"(each part less ``closing``) as one text, ``end`` the last part (``parts[-1]``), ``middle`` the bodies\n"
"joined by ``between`` (bytes: the text between two bodies as a JSON string holds it) as UTF-8 when\n"
"JSON escapes nothing in them, else None (None too when ``between`` is None). None when it is not\n"
"such a run (fewer than two parts between the first and the last, a part not ending in ``closing``,\n"
"a quote no backslash escapes in a body, ``\"\\\\\" + closing[:8]`` in ``text``), or when this cannot\n"
"tell (an opening longer than 64 characters, or one not beginning with a quote): the caller then reads\n"
"the text in Python.");

static PyObject *
recurring_cut(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_Format(PyExc_TypeError, "recurring_cut() takes 4 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *text = args[0], *opening = args[1], *closing = args[2], *between = args[3];
    if (!PyUnicode_Check(text) || !PyUnicode_Check(opening) || !PyUnicode_Check(closing)) {
        PyErr_SetString(PyExc_TypeError, "recurring_cut(): text, opening and closing must be str");
        return NULL;
    }
    if (between != Py_None && !PyBytes_Check(between)) {
        PyErr_SetString(PyExc_TypeError, "recurring_cut(): between must be bytes or None");
        return NULL;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(text) < 0)
        return NULL;
#endif
    int kind = PyUnicode_KIND(text);
    Needle op, cl;
    int ok = needle(opening, kind, &op);
    if (ok > 0)
        ok = needle(closing, kind, &cl);
    if (ok < 0)
        return NULL;
    /* A needle wider than the text cannot be in it (no run); an empty closing ends nothing and an empty
       opening is ``split``'s error; an opening not starting with ``"`` is never made (``_STREAMED_VALUE``);
       a closing ending in a backslash would escape the opening's quote after it (no stream's recurring text
       does; refused, as the Python refuses it). */
    if (ok == 0 || op.len == 0 || op.len > MAX_OPENING || cl.len == 0 || at(op.kind, op.data, 0) != '"'
            || at(cl.kind, cl.data, cl.len - 1) == '\\')
        Py_RETURN_NONE;
    PyObject *found = NULL;
    int rc = kind == PyUnicode_1BYTE_KIND ? cut_kind(PyUnicode_1BYTE_KIND, text, &op, &cl, between, &found)
           : kind == PyUnicode_2BYTE_KIND ? cut_kind(PyUnicode_2BYTE_KIND, text, &op, &cl, between, &found)
           : cut_kind(PyUnicode_4BYTE_KIND, text, &op, &cl, between, &found);
    if (rc < 0)
        return NULL;
    if (rc == 0)
        Py_RETURN_NONE;
    return found;
}

static PyMethodDef methods[] = {
    {"recurring_cut", (PyCFunction)(void (*)(void))recurring_cut, METH_FASTCALL, recurring_cut_doc},
    {"maybe_key", maybe_key, METH_O, maybe_key_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_runscan",
    "The recording scrub's recurring cut and key-prefix test in C (inspector/capture/_runscan.c; redact.py and\n"
    "keyshapes.py have the same in Python).",
    0, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__runscan(void)
{
    for (int c = 0; c < 256; c++)
        SPECIAL1[c] = (unsigned char)special((Py_UCS4)c);
    for (const char *c = KEY_STARTS; *c; c++)
        KEYCHAR1[(unsigned char)*c] = 1;
    return PyModule_Create(&module);
}
