//! What people and programs use: the command line's shared parts ([`cli`]), reports and
//! charts ([`report`]) and the HTTP server ([`serve`]). Everything here calls the layers below
//! through [`crate::solving`] and the catalogue; the binaries only parse and dispatch to it.

pub mod cli;
pub mod commands;
pub mod report;
pub mod serve;
