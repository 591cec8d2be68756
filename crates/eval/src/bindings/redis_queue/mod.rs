//! A pure model of the Redis queue the `redis_layout` behavioural blocks drive against a live
//! server (broker-bindings §1.1, §1.6, §1.7; ADR-0033, ADR-0034): the keyspace, the score
//! clock, the reserve script's cjson rewrite, the SDK's poison classification and the
//! transport operations of both layouts.

pub mod cjson;
pub mod clock;
pub mod json_text;
pub mod keyspace;
pub mod poison;
pub mod release;
pub mod transport;

pub use clock::Now;
pub use keyspace::Keyspace;
pub use transport::{Config, Delivery, Handle, Layout, OpError, Tokens, Transport};
