//! The benchmarks are the bench targets of this package (model, pocket, tables, solver);
//! the library is empty.
