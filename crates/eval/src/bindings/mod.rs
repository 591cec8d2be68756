//! The reference model of the broker bindings and the consumer helpers the binding sections
//! pin: the schema-version gate, attempts reconciliation, native projections, SQS delay, Kafka
//! backoff, traceparent extraction, the Redis layout, idempotency and payload schemas.
//!
//! Everything here is pure: no I/O, no printing, and no panic on any input. The section runners
//! under `eval::sections` feed manifest cases into these models and compare the results with the
//! manifest's expectations; `harness` holds the helpers they share.

pub mod backoff;
pub mod broker_table;
pub mod decimal;
pub mod delay;
pub mod exhaustion;
pub mod gate;
pub mod harness;
pub mod idempotency;
pub mod payload;
pub mod poison;
pub mod projection;
pub mod reconcile;
pub mod redis;
pub mod redis_delay;
pub mod redis_queue;
pub mod retry;
pub mod settle;
pub mod traceparent;

#[cfg(test)]
pub(crate) mod testutil;
