/* jmsctl.filter._bytecount: count(haystack, needle, i=0, j=len(needle)-1) -> int, what
 * bytes.count(needle) returns (non-overlapping occurrences, left to right), found 16 bytes at a
 * time: a candidate is a position where needle[i] and needle[j] both sit at their offsets (SSE2
 * compares, as W. Mula's "SIMD-friendly algorithms for substring searching" describes), each one
 * then compared whole. The filter's column path counts each selector key in every chunk to prove it
 * once on each line (jmsctl/filter/columnpath.py); bytes.count and re take 0.4-0.5 ns a byte there
 * (every JSON line holds dozens of the quotes and letters they stop at), this about a fifth of that
 * (python bench/bytecount_bench.py).
 * i and j are the needle's rarest bytes (the caller knows JSON's commonest). Optional: without a C
 * compiler the package installs without it and the filter counts with re (same counts). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#if defined(__GNUC__)
#define INLINED static inline __attribute__((always_inline))
#else
#define INLINED static inline
#endif

/* Each occurrence of k that begins at or after *next, left to right: on(state, x) is called with it and
 * moves *next on (past the occurrence for count, past its line for line_hits); -1 from on stops with
 * -1. Every candidate of a block lies wholly inside the haystack: x + m <= n for x < pos + 16. Inlined
 * in each caller with its own on: as fast as a loop written for each (a call through the pointer
 * took a third longer). */
INLINED int
each_match(const unsigned char *s, Py_ssize_t n, const unsigned char *k, Py_ssize_t m, Py_ssize_t i, Py_ssize_t j,
           Py_ssize_t *next, int (*on)(void *, Py_ssize_t), void *state)
{
    Py_ssize_t pos = 0;
#if defined(__SSE2__)
    const __m128i first = _mm_set1_epi8((char)k[i]), second = _mm_set1_epi8((char)k[j]);
    for (; pos + 16 + m - 1 <= n; pos += 16) {
        __m128i a = _mm_loadu_si128((const __m128i *)(s + pos + i));
        __m128i b = _mm_loadu_si128((const __m128i *)(s + pos + j));
        unsigned mask = (unsigned)_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(a, first), _mm_cmpeq_epi8(b, second)));
        while (mask) {
            Py_ssize_t x = pos + __builtin_ctz(mask);
            mask &= mask - 1;
            if (x >= *next && memcmp(s + x, k, (size_t)m) == 0 && on(state, x) < 0)
                return -1;
        }
    }
#else
    (void)i;
    (void)j;
#endif
    for (; pos + m <= n; pos++) {
        if (pos >= *next && s[pos] == k[0] && memcmp(s + pos, k, (size_t)m) == 0 && on(state, pos) < 0)
            return -1;
    }
    return 0;
}

/* count's state: the occurrences so far, and where the next may begin (none overlaps the last). */
struct counted {
    Py_ssize_t next, found, m;
};

INLINED int
one_more(void *state, Py_ssize_t x)
{
    struct counted *c = state;
    c->found++;
    c->next = x + c->m;
    return 0;
}

/* What line_hits knows as it goes: the line it is in and where that starts, how far the line ends are
 * counted, and where the next line begins (matches before it are in a line already found). */
struct lines {
    const unsigned char *s;
    Py_ssize_t n, line, start, counted, next;
    PyObject *numbers, *texts;
};

/* A match at x: its line's number and bytes appended; -1 on a Python error. */
static int
record(void *state, Py_ssize_t x)
{
    struct lines *st = state;
    const unsigned char *s = st->s, *p = s + st->counted, *q;
    while ((q = memchr(p, '\n', (size_t)(s + x - p))) != NULL) {
        st->line++;
        p = q + 1;
        st->start = p - s;
    }
    q = memchr(s + x, '\n', (size_t)(st->n - x));
    Py_ssize_t end = q == NULL ? st->n : q - s;
    PyObject *a = PyLong_FromSsize_t(st->line), *b = PyBytes_FromStringAndSize((const char *)s + st->start, end - st->start);
    int failed = a == NULL || b == NULL || PyList_Append(st->numbers, a) < 0 || PyList_Append(st->texts, b) < 0;
    Py_XDECREF(a);
    Py_XDECREF(b);
    st->line++;
    st->start = st->counted = st->next = end + 1;
    return failed ? -1 : 0;
}

/* The lines (as chunk.split(b"\n") numbers them) that hold k, each once, in order: their numbers and
 * their bytes (without the b"\n"). k holds no b"\n", so a match lies inside one line; one in a line
 * already found is passed over. */
static int
line_hits(const unsigned char *s, Py_ssize_t n, const unsigned char *k, Py_ssize_t m, Py_ssize_t i, Py_ssize_t j,
          PyObject *numbers, PyObject *texts)
{
    struct lines st = {s, n, 0, 0, 0, 0, numbers, texts};
    return each_match(s, n, k, m, i, j, &st.next, record, &st);
}

/* How many lines chunk.split(b"\n") gives (a b"\n" ending the chunk ends its last line), and whether
 * every line is non-empty and begins with a byte above the space (then none is blank, as
 * jmsctl.filter.batch.count_records reads a chunk's lines). */
static void
line_stats(const unsigned char *s, Py_ssize_t n, Py_ssize_t *lines, int *clean)
{
    Py_ssize_t newlines = 0, pos = 0;
    int low = n > 0 && s[0] <= 0x20;
#if defined(__SSE2__)
    const __m128i nl = _mm_set1_epi8('\n'), space = _mm_set1_epi8(0x20), zero = _mm_setzero_si128();
    __m128i seen = zero;
    /* A newline at pos + b, and the byte after it (at pos + 1 + b, inside the chunk) at or below the
     * space; the newlines summed in byte lanes (each -1 subtracted), added up every 255 blocks. */
    while (pos + 17 <= n) {
        __m128i lanes = zero;
        for (int round = 0; round < 255 && pos + 17 <= n; round++, pos += 16) {
            __m128i a = _mm_loadu_si128((const __m128i *)(s + pos));
            __m128i b = _mm_loadu_si128((const __m128i *)(s + pos + 1));
            __m128i is_nl = _mm_cmpeq_epi8(a, nl);
            lanes = _mm_sub_epi8(lanes, is_nl);
            seen = _mm_or_si128(seen, _mm_and_si128(is_nl, _mm_cmpeq_epi8(_mm_min_epu8(b, space), b)));
        }
        __m128i sums = _mm_sad_epu8(lanes, zero);
        newlines += _mm_cvtsi128_si32(sums) + _mm_cvtsi128_si32(_mm_srli_si128(sums, 8));
    }
    low |= _mm_movemask_epi8(seen) != 0;
#endif
    for (; pos < n; pos++) {
        if (s[pos] == '\n') {
            newlines++;
            if (pos + 1 < n && s[pos + 1] <= 0x20)
                low = 1;
        }
    }
    *lines = n == 0 ? 0 : newlines + (s[n - 1] != '\n');
    *clean = !low;
}

/* The number of lines chunk.split(b"\n") gives when each begins with "{" and ends with "}" (a b"\n"
 * ending the chunk ends its last line), else -1. Then a JSON text decoded from the whole chunk as a
 * sequence of values is one value a line exactly when it holds as many values as lines
 * (jmsctl/filter/columnpath.py says why). */
static Py_ssize_t
brace_lines(const unsigned char *s, Py_ssize_t n)
{
    if (n == 0)
        return 0;
    if (s[0] != '{' || (s[n - 1] != '}' && !(s[n - 1] == '\n' && n >= 2)))
        return -1;
    Py_ssize_t newlines = 0, pos = 1;
    int bad = 0;
#if defined(__SSE2__)
    const __m128i nl = _mm_set1_epi8('\n'), open = _mm_set1_epi8('{'), close = _mm_set1_epi8('}'), zero = _mm_setzero_si128();
    __m128i wrong = zero;
    /* A newline at pos + b: the byte before it (at pos - 1 + b) a "}", the byte after it (inside the chunk) a "{". */
    while (pos + 17 <= n) {
        __m128i lanes = zero;
        for (int round = 0; round < 255 && pos + 17 <= n; round++, pos += 16) {
            __m128i a = _mm_loadu_si128((const __m128i *)(s + pos));
            __m128i before = _mm_loadu_si128((const __m128i *)(s + pos - 1));
            __m128i after = _mm_loadu_si128((const __m128i *)(s + pos + 1));
            __m128i is_nl = _mm_cmpeq_epi8(a, nl);
            __m128i fine = _mm_and_si128(_mm_cmpeq_epi8(before, close), _mm_cmpeq_epi8(after, open));
            lanes = _mm_sub_epi8(lanes, is_nl);
            wrong = _mm_or_si128(wrong, _mm_andnot_si128(fine, is_nl));
        }
        if (_mm_movemask_epi8(wrong) != 0)
            return -1;  /* a dump not so (CRLF, pretty-printed) costs a few KB of this scan a chunk */
        __m128i sums = _mm_sad_epu8(lanes, zero);
        newlines += _mm_cvtsi128_si32(sums) + _mm_cvtsi128_si32(_mm_srli_si128(sums, 8));
    }
#endif
    for (; pos < n && !bad; pos++) {
        if (s[pos] == '\n') {
            newlines++;
            if (s[pos - 1] != '}' || (pos + 1 < n && s[pos + 1] != '{'))
                bad = 1;
        }
    }
    if (bad)
        return -1;
    return newlines + (s[n - 1] != '\n');
}

static PyObject *
bytecount_brace_lines(PyObject *self, PyObject *args)
{
    Py_buffer hay;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*:brace_lines", &hay))
        return NULL;
    Py_ssize_t lines = brace_lines((const unsigned char *)hay.buf, hay.len);
    PyBuffer_Release(&hay);
    return PyLong_FromSsize_t(lines);
}

/* (haystack, needle, i=0, j=len(needle)-1) parsed and checked for count and line_hits: 0, or -1 with a
 * Python error set and no buffer held. */
static int
needle_args(PyObject *args, const char *format, Py_buffer *hay, Py_buffer *needle, Py_ssize_t *i, Py_ssize_t *j,
            int line_end_allowed, const char *refusal)
{
    *i = 0;
    *j = -1;
    if (!PyArg_ParseTuple(args, format, hay, needle, i, j))
        return -1;
    Py_ssize_t m = needle->len;
    if (*j < 0)
        *j = m - 1;
    if (m == 0 || *i < 0 || *i >= m || *j >= m || (!line_end_allowed && memchr(needle->buf, '\n', (size_t)m) != NULL)) {
        PyBuffer_Release(hay);
        PyBuffer_Release(needle);
        PyErr_SetString(PyExc_ValueError, refusal);
        return -1;
    }
    return 0;
}

static PyObject *
bytecount_line_hits(PyObject *self, PyObject *args)
{
    Py_buffer hay, needle;
    Py_ssize_t i, j;
    (void)self;
    if (needle_args(args, "y*y*|nn:line_hits", &hay, &needle, &i, &j, 0,
                    "line_hits: a non-empty needle without a line end, and 0 <= i, j < len(needle)") < 0)
        return NULL;
    Py_ssize_t m = needle.len;
    PyObject *numbers = NULL, *texts = NULL, *result = NULL;
    numbers = PyList_New(0);
    texts = PyList_New(0);
    if (numbers == NULL || texts == NULL)
        goto done;
    if (m <= hay.len && line_hits((const unsigned char *)hay.buf, hay.len, (const unsigned char *)needle.buf, m, i, j, numbers, texts) < 0)
        goto done;
    result = PyTuple_Pack(2, numbers, texts);
done:
    Py_XDECREF(numbers);
    Py_XDECREF(texts);
    PyBuffer_Release(&hay);
    PyBuffer_Release(&needle);
    return result;
}

static PyObject *
bytecount_line_stats(PyObject *self, PyObject *args)
{
    Py_buffer hay;
    Py_ssize_t lines;
    int clean;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*:line_stats", &hay))
        return NULL;
    line_stats((const unsigned char *)hay.buf, hay.len, &lines, &clean);
    PyBuffer_Release(&hay);
    return Py_BuildValue("nO", lines, clean ? Py_True : Py_False);
}

static PyObject *
bytecount_count(PyObject *self, PyObject *args)
{
    Py_buffer hay, needle;
    Py_ssize_t i, j, result;
    (void)self;
    if (needle_args(args, "y*y*|nn:count", &hay, &needle, &i, &j, 1, "count: a non-empty needle, and 0 <= i, j < len(needle)") < 0)
        return NULL;
    Py_ssize_t m = needle.len;
    struct counted c = {0, 0, m};
    if (m <= hay.len)
        each_match((const unsigned char *)hay.buf, hay.len, (const unsigned char *)needle.buf, m, i, j, &c.next, one_more, &c);
    result = c.found;
    PyBuffer_Release(&hay);
    PyBuffer_Release(&needle);
    return PyLong_FromSsize_t(result);
}

static PyMethodDef methods[] = {
    {"count", bytecount_count, METH_VARARGS,
     "count(haystack, needle, i=0, j=len(needle)-1) -> int: bytes.count(needle), candidates found by needle[i] and needle[j]."},
    {"line_hits", bytecount_line_hits, METH_VARARGS,
     "line_hits(chunk, needle, i=0, j=len(needle)-1) -> (numbers, lines): the lines of chunk.split(b'\\n') holding needle."},
    {"line_stats", bytecount_line_stats, METH_VARARGS,
     "line_stats(chunk) -> (lines, clean): len(chunk_lines(chunk)); True when no line is empty or begins at or below a space."},
    {"brace_lines", bytecount_brace_lines, METH_VARARGS,
     "brace_lines(chunk) -> len(chunk_lines(chunk)) when each line begins with '{' and ends with '}', else -1."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_bytecount", NULL, -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC
PyInit__bytecount(void)
{
    return PyModule_Create(&module);
}
