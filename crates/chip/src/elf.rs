//! ELF loading.
