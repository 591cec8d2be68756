//! The poison rules: which raw bodies the strict core decoder refuses or finds without an
//! identity ([`classify`]), and the DLQ record a poison body produces ([`dlq`]).
//!
//! Both read the body with their own scanner ([`scan`]) because the rules look at what a
//! general JSON parser hides: repeated member names, the text of a number, unpaired surrogate
//! escapes, a byte order mark.

pub mod base64;
pub mod classify;
pub mod dlq;
pub mod input;
pub mod number;
pub mod scan;
pub mod value;
