//! A table's mapped payload as a Python buffer, without a copy: `memoryview(TableBytes)`.
//!
//! pyo3 implements `__getbuffer__` only where the limited API has `Py_buffer` (Python 3.11),
//! and this module is built for the stable ABI of 3.9 (one wheel for every CPython from 3.9).
//! So the exporting type is made here from a type spec with the `Py_bf_getbuffer` slot, which
//! `PyType_FromSpec` accepts since 3.9 (bpo-40724), and the view is filled by
//! `PyBuffer_FillInfo`, which every CPython 3 exports (the stable ABI lists both from 3.11; their
//! signatures and `Py_buffer`'s layout have not changed since 3.3). The view's `obj` is the
//! exporting object, which holds the table: the mapping lives while any view of it does, a
//! numpy array's base included. Views are read-only (the mapping is `PROT_READ`; a request for a
//! writable one raises BufferError).

use cubelab::table::Table as LibTable;
use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;
use std::ffi::{c_int, c_void};
use std::sync::Arc;

unsafe extern "C" {
    fn PyBuffer_FillInfo(
        view: *mut c_void,
        exporter: *mut ffi::PyObject,
        buf: *mut c_void,
        len: ffi::Py_ssize_t,
        readonly: c_int,
        flags: c_int,
    ) -> c_int;
}

/// The exporting object's layout: a Python object and the table it holds a share of.
#[repr(C)]
struct Object {
    base: ffi::PyObject,
    /// From `Arc::into_raw`; null only for an object made from Python (`TableBytes.__new__`,
    /// which the type inherits from `object`), which exports nothing.
    table: *const LibTable,
}

unsafe extern "C" fn get_buffer(obj: *mut ffi::PyObject, view: *mut c_void, flags: c_int) -> c_int {
    // SAFETY: CPython calls this slot with an instance of the type below.
    let table = unsafe { (*obj.cast::<Object>()).table };
    if table.is_null() {
        // SAFETY: called with the GIL held; the message is a static C string.
        unsafe {
            ffi::PyErr_SetString(
                ffi::PyExc_BufferError,
                c"this TableBytes holds no table: get one from Table.buffer()".as_ptr(),
            );
        }
        return -1;
    }
    // SAFETY: `table` is alive while `obj` is (dropped in `dealloc`), and PyBuffer_FillInfo
    // takes a reference to `obj` for the view, so it outlives the view too.
    let payload = unsafe { (*table).payload() };
    unsafe {
        PyBuffer_FillInfo(
            view,
            obj,
            payload.as_ptr().cast_mut().cast(),
            payload.len() as ffi::Py_ssize_t,
            1,
            flags,
        )
    }
}

unsafe extern "C" fn dealloc(obj: *mut ffi::PyObject) {
    // SAFETY: the last reference to an instance of the type below is going; no view holds it.
    unsafe {
        let object = obj.cast::<Object>();
        let table = std::mem::replace(&mut (*object).table, std::ptr::null());
        if !table.is_null() {
            drop(Arc::from_raw(table));
        }
        let tp = ffi::Py_TYPE(obj);
        let free: ffi::freefunc = std::mem::transmute(ffi::PyType_GetSlot(tp, ffi::Py_tp_free));
        free(obj.cast());
        // An instance of a heap type holds a reference to its type.
        ffi::Py_DECREF(tp.cast());
    }
}

static TYPE: PyOnceLock<Py<PyType>> = PyOnceLock::new();

fn table_bytes_type(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    let tp = TYPE.get_or_try_init(py, || {
        let mut slots = [
            ffi::PyType_Slot {
                slot: ffi::Py_bf_getbuffer,
                pfunc: get_buffer as *mut c_void,
            },
            ffi::PyType_Slot {
                slot: ffi::Py_tp_dealloc,
                pfunc: dealloc as *mut c_void,
            },
            ffi::PyType_Slot {
                slot: ffi::Py_tp_doc,
                pfunc: c"A table's mapped payload, exported read-only through the buffer protocol: memoryview(it), numpy.frombuffer(it). Made by Table.buffer().".as_ptr().cast_mut().cast(),
            },
            ffi::PyType_Slot::default(),
        ];
        let mut spec = ffi::PyType_Spec {
            // Static: before 3.11 the type keeps this pointer as its name (bpo-45315).
            name: c"cubelab.TableBytes".as_ptr(),
            basicsize: std::mem::size_of::<Object>() as c_int,
            itemsize: 0,
            flags: ffi::Py_TPFLAGS_DEFAULT as _,
            slots: slots.as_mut_ptr(),
        };
        // SAFETY: the spec is complete and its slots' functions have the slots' signatures.
        let tp = unsafe { Bound::from_owned_ptr_or_err(py, ffi::PyType_FromSpec(&mut spec))? };
        Ok::<_, PyErr>(tp.cast_into::<PyType>()?.unbind())
    })?;
    Ok(tp.bind(py))
}

/// A read-only memoryview of `table`'s payload as mapped: no copy, and the mapping stays while
/// the view (or anything made from it) does.
pub fn memoryview<'py>(py: Python<'py>, table: &Arc<LibTable>) -> PyResult<Bound<'py, PyAny>> {
    let tp = table_bytes_type(py)?;
    let tp_ptr = tp.as_ptr().cast::<ffi::PyTypeObject>();
    // SAFETY: the type's own allocator (object's, zero-filling) makes an instance of the size the
    // spec gave; the table pointer is set before anything can read it.
    let exporter = unsafe {
        let alloc = ffi::PyType_GetSlot(tp_ptr, ffi::Py_tp_alloc);
        if alloc.is_null() {
            return Err(PyTypeError::new_err("TableBytes has no allocator"));
        }
        let alloc: ffi::allocfunc = std::mem::transmute(alloc);
        let obj = Bound::from_owned_ptr_or_err(py, alloc(tp_ptr, 0))?;
        (*obj.as_ptr().cast::<Object>()).table = Arc::into_raw(Arc::clone(table));
        obj
    };
    // SAFETY: the exporter supports the buffer protocol (above).
    unsafe { Bound::from_owned_ptr_or_err(py, ffi::PyMemoryView_FromObject(exporter.as_ptr())) }
}
