/* jmsctl.filter._bytecount: count(haystack, needle, i=0, j=len(needle)-1) -> int, what
 * bytes.count(needle) returns (non-overlapping occurrences, left to right), found 16 bytes at a
 * time: a candidate is a position where needle[i] and needle[j] both sit at their offsets (SSE2
 * compares, as W. Mula's "SIMD-friendly algorithms for substring searching" describes), each one
 * then compared whole. The filter's column path counts each selector key in every chunk to prove it
 * once on each line (jmsctl/filter/columnpath.py); bytes.count and re take 0.4-0.5 ns a byte there
 * (every JSON line holds dozens of the quotes and letters they stop at), this about a fifth of that.
 * i and j are the needle's rarest bytes (the caller knows JSON's commonest). Optional: without a C
 * compiler the package installs without it and the filter counts with re (same counts). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static Py_ssize_t
count_scalar(const unsigned char *s, Py_ssize_t n, const unsigned char *k, Py_ssize_t m,
             Py_ssize_t from, Py_ssize_t next, Py_ssize_t found)
{
    for (Py_ssize_t x = from; x + m <= n; x++) {
        if (x >= next && s[x] == k[0] && memcmp(s + x, k, (size_t)m) == 0) {
            found++;
            next = x + m;
        }
    }
    return found;
}

static Py_ssize_t
count(const unsigned char *s, Py_ssize_t n, const unsigned char *k, Py_ssize_t m, Py_ssize_t i, Py_ssize_t j)
{
    Py_ssize_t found = 0, next = 0, pos = 0;
#if defined(__SSE2__)
    const __m128i first = _mm_set1_epi8((char)k[i]), second = _mm_set1_epi8((char)k[j]);
    /* Every candidate of a block lies wholly inside the haystack: x + m <= n for x < pos + 16. */
    for (; pos + 16 + m - 1 <= n; pos += 16) {
        __m128i a = _mm_loadu_si128((const __m128i *)(s + pos + i));
        __m128i b = _mm_loadu_si128((const __m128i *)(s + pos + j));
        unsigned mask = (unsigned)_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(a, first), _mm_cmpeq_epi8(b, second)));
        while (mask) {
            Py_ssize_t x = pos + __builtin_ctz(mask);
            mask &= mask - 1;
            if (x >= next && memcmp(s + x, k, (size_t)m) == 0) {
                found++;
                next = x + m;
            }
        }
    }
#else
    (void)i;
    (void)j;
#endif
    return count_scalar(s, n, k, m, pos, next, found);
}

static PyObject *
bytecount_count(PyObject *self, PyObject *args)
{
    Py_buffer hay, needle;
    Py_ssize_t i = 0, j = -1, result;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*y*|nn:count", &hay, &needle, &i, &j))
        return NULL;
    Py_ssize_t m = needle.len;
    if (j < 0)
        j = m - 1;
    if (m == 0 || i < 0 || i >= m || j >= m) {
        PyBuffer_Release(&hay);
        PyBuffer_Release(&needle);
        PyErr_SetString(PyExc_ValueError, "count: a non-empty needle, and 0 <= i, j < len(needle)");
        return NULL;
    }
    result = m > hay.len ? 0 : count((const unsigned char *)hay.buf, hay.len, (const unsigned char *)needle.buf, m, i, j);
    PyBuffer_Release(&hay);
    PyBuffer_Release(&needle);
    return PyLong_FromSsize_t(result);
}

static PyMethodDef methods[] = {
    {"count", bytecount_count, METH_VARARGS,
     "count(haystack, needle, i=0, j=len(needle)-1) -> int: bytes.count(needle), candidates found by needle[i] and needle[j]."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_bytecount", NULL, -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC
PyInit__bytecount(void)
{
    return PyModule_Create(&module);
}
