/* attnvid.render._trace: Manim's VMobject outline handed to Cairo in C.
 *
 * Why our own C: Manim's Camera.set_cairo_context_path (and attnvid.render.camera.trace_path,
 * its one-pass Python version) calls pycairo's curve_to once per Bezier curve; for the outlines
 * that change at every frame (a fading caption's glyphs, a moving table) that Python loop was a
 * ninth of a 480p lecture's CPU. pycairo has no call that takes a path as an array (its
 * append_path takes only a Path that copy_path made), and numpy cannot call Cairo. So this one
 * function does what trace_path does, step for step, with the same doubles and the same Cairo
 * calls (cairo_new_path, cairo_new_sub_path, cairo_move_to, cairo_curve_to, cairo_close_path),
 * so the path Cairo builds is the same one; tests/test_camera.py compares both, path for path.
 *
 * trace(context, points, nppcc, atol, rtol): ``points`` a C-contiguous float64 buffer of n x 3
 * (Manim's points), ``nppcc`` Manim's points per cubic curve (4), ``atol`` the mobject's
 * tolerance_for_point_equality, ``rtol`` numpy.isclose's relative tolerance. Built with
 * -ffp-contract=off, so that ``atol + rtol * |x|`` is rounded as Python rounds it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <cairo.h>

/* pycairo's Context object (py3cairo.h's PycairoContext, unchanged since pycairo 1.11): the
 * Python side passes only a cairo.Context (it checks the type), so the pointer is a Context's. */
typedef struct {
    PyObject_HEAD
    cairo_t *ctx;
    PyObject *base;
} PycairoContext;

/* Manim's VMobject.consider_points_equals_2d for (x0, y0) and (x1, y1). */
static int close_2d(double x0, double y0, double x1, double y1, double atol, double rtol) {
    if (fabs(x0 - x1) > atol + rtol * fabs(x1)) return 0;
    if (fabs(y0 - y1) > atol + rtol * fabs(y1)) return 0;
    return 1;
}

/* trace_path's subpath(start, end): the curves of points [start, end), closed when its ends meet. */
static void subpath(cairo_t *cr, const double *p, Py_ssize_t start, Py_ssize_t end, Py_ssize_t nppcc,
                    double atol, double rtol) {
    if (end - start < nppcc) return;
    cairo_new_sub_path(cr);
    cairo_move_to(cr, p[3 * start], p[3 * start + 1]);
    for (Py_ssize_t i = start; i <= end - nppcc; i += nppcc) {
        const double *c = p + 3 * (i + 1);
        cairo_curve_to(cr, c[0], c[1], c[3], c[4], c[6], c[7]);
    }
    if (close_2d(p[3 * start], p[3 * start + 1], p[3 * end - 3], p[3 * end - 2], atol, rtol))
        cairo_close_path(cr);
}

static PyObject *trace(PyObject *self, PyObject *args) {
    PyObject *context;
    Py_buffer view;
    Py_ssize_t nppcc;
    double atol, rtol;
    if (!PyArg_ParseTuple(args, "Oy*ndd", &context, &view, &nppcc, &atol, &rtol)) return NULL;
    if (view.len % (3 * (Py_ssize_t)sizeof(double)) != 0 || nppcc < 2) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "points must be n x 3 float64 and nppcc at least 2");
        return NULL;
    }
    cairo_t *cr = ((PycairoContext *)context)->ctx;
    const double *p = (const double *)view.buf;
    Py_ssize_t n = view.len / (3 * (Py_ssize_t)sizeof(double));
    int finite = 1;
    for (Py_ssize_t k = 0; k < 3 * n && finite; k++) finite = isfinite(p[k]);
    cairo_new_path(cr);
    if (finite && n >= nppcc) {  /* Manim draws nothing for a non-finite point */
        Py_ssize_t start = 0;
        for (Py_ssize_t b = nppcc; b < n; b += nppcc) {
            /* a curve's end close to the next one's start: the same subpath (Manim's split) */
            if (close_2d(p[3 * b - 3], p[3 * b - 2], p[3 * b], p[3 * b + 1], atol, rtol)) continue;
            subpath(cr, p, start, b, nppcc, atol, rtol);
            start = b;
        }
        subpath(cr, p, start, n, nppcc, atol, rtol);
    }
    PyBuffer_Release(&view);
    cairo_status_t status = cairo_status(cr);
    if (status != CAIRO_STATUS_SUCCESS) {
        PyErr_SetString(PyExc_RuntimeError, cairo_status_to_string(status));
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"trace", trace, METH_VARARGS, "trace(context, points, nppcc, atol, rtol): Manim's outline as a Cairo path."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_trace", NULL, -1, methods};

PyMODINIT_FUNC PyInit__trace(void) { return PyModule_Create(&module); }
