//! The SDK's Redis transport as pure operations on a [`Keyspace`] (broker-bindings §1.1,
//! §1.6, §1.7; ADR-0033, ADR-0034).
//!
//! Two layouts. **zset** (Laravel-compatible): ready list `<prefix><q>`, sorted sets
//! `:delayed` (scored by available-at) and `:reserved` (scored by the retry-after deadline),
//! wake-up list `:notify`. **legacy**: ready list `<q>`, in-flight list `<q>:processing`, and
//! the deadline set `<q>:processing:deadlines` whose members are `<32-hex token>:<raw>`.
//!
//! Every operation is one atomic script in the SDK, so each either applies completely or not
//! at all here; a `WRONGTYPE` clash aborts the operation as it would abort the script.

use super::cjson;
use super::clock::{self, Now};
use super::keyspace::{Cmd, Keyspace};
use super::poison;
use super::release;
use crate::switch::redis as mutant;

/// Which key layout the transport runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    Zset,
    Legacy,
}

/// The transport's settings.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    pub layout: Layout,
    pub queue: String,
    /// The Laravel key prefix (`queues:`).
    pub prefix: String,
    /// Seconds a reservation lasts; `None` disables recovery (score `+inf`).
    pub retry_after: Option<u64>,
    /// Members one migrate or sweep moves at most; `None` for all.
    pub batch: Option<usize>,
}

/// The ack handle of a reservation.
#[derive(Debug, Clone, PartialEq)]
pub enum Handle {
    /// zset layout: the `:reserved` member.
    Member(String),
    /// legacy layout: the stored value and the reservation's token.
    Legacy { raw: String, token: String },
}

/// A reserved message as the SDK hands it over.
#[derive(Debug, Clone, PartialEq)]
pub struct Delivery {
    /// The body the handler (or the poison path) receives.
    pub body: String,
    pub handle: Handle,
    /// Routed to the poison path instead of a handler.
    pub poison: bool,
}

/// What went wrong in a step: the operation cannot run as the SDK would.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpError(pub String);

impl From<super::keyspace::WrongType> for OpError {
    fn from(w: super::keyspace::WrongType) -> Self {
        OpError(format!(
            "WRONGTYPE: key `{}` holds the other value type",
            w.0
        ))
    }
}

/// Result of an operation.
pub type Op<T> = Result<T, OpError>;

/// Deterministic reservation tokens: 32 lowercase hex characters, distinct from each other
/// and from every token the case itself names.
#[derive(Debug, Clone, Default)]
pub struct Tokens {
    issued: u64,
    avoid: Vec<String>,
}

impl Tokens {
    /// A source that never issues one of `avoid`.
    pub fn avoiding(avoid: Vec<String>) -> Self {
        Tokens { issued: 0, avoid }
    }

    /// The next token.
    pub fn issue(&mut self) -> String {
        loop {
            self.issued += 1;
            let token = format!("5eed{:028x}", self.issued);
            if !self.avoid.contains(&token) {
                return token;
            }
        }
    }
}

/// The transport over one keyspace.
#[derive(Debug, Clone)]
pub struct Transport {
    pub config: Config,
    pub keys: Keyspace,
    pub tokens: Tokens,
}

impl Transport {
    /// The key the conformance runner reads or seeds for a state or expectation name
    /// (`ready`, `delayed`, `reserved`, `notify`, `processing`, `deadlines`): the contract's
    /// names, fixed whatever key names the SDK model (or a mutant of it) uses.
    pub fn runner_key(&self, name: &str) -> String {
        let q = &self.config.queue;
        let ready = match self.config.layout {
            Layout::Zset => format!("{}{q}", self.config.prefix),
            Layout::Legacy => q.clone(),
        };
        match name {
            "delayed" | "reserved" | "notify" => format!("{ready}:{name}"),
            "processing" => format!("{q}:processing"),
            "deadlines" => format!("{q}:processing:deadlines"),
            _ => ready,
        }
    }

    /// The ready list: `<prefix><q>` (zset) or `<q>` (legacy).
    pub fn ready_key(&self) -> String {
        match self.config.layout {
            Layout::Zset => format!(
                "{}{}",
                mutant::prefix(&self.config.prefix),
                self.config.queue
            ),
            Layout::Legacy => self.config.queue.clone(),
        }
    }

    /// The key a state or expectation name refers to (`delayed`, `reserved`, `notify`,
    /// `processing`, `deadlines`).
    pub fn key(&self, name: &str) -> String {
        let ready = self.ready_key();
        let q = &self.config.queue;
        match name {
            "delayed" => format!("{ready}:delayed"),
            "reserved" => format!("{ready}:{}", mutant::reserved_suffix()),
            "notify" => format!("{ready}:notify"),
            "processing" => format!("{q}:processing"),
            "deadlines" => format!("{q}:processing:deadlines"),
            _ => ready,
        }
    }

    /// The SDK's delayed push: `ZADD :delayed floor(now)+ceil(delay)`, no notify token.
    /// The legacy layout has no delayed set and refuses it.
    pub fn push_delayed(
        &mut self,
        now: Now,
        body: &str,
        delay: f64,
        exact: Option<i128>,
    ) -> Op<()> {
        if self.config.layout == Layout::Legacy {
            return Err(OpError(
                "the legacy layout has no delayed set: a delayed push is refused".into(),
            ));
        }
        let score = clock::available_at(now, delay, exact);
        self.keys.zadd(&self.key("delayed"), body, score)?;
        Ok(())
    }

    /// The §1.6 migrate: due `:delayed` members, then (unless recovery is off) expired
    /// `:reserved` members, move to the end of the ready list in score order, byte for byte,
    /// one notify token each.
    pub fn migrate(&mut self, now: Now) -> Op<()> {
        let mut keys = self.keys.clone();
        let mut sources = vec![self.key("delayed")];
        if self.config.retry_after.is_some() || mutant::recovers_with_null_retry_after() {
            sources.push(self.key("reserved"));
        }
        if mutant::migrates_reserved_first() {
            sources.reverse();
        }
        for from in sources {
            self.migrate_one(&mut keys, &from, now)?;
        }
        self.keys = keys;
        Ok(())
    }

    fn migrate_one(&self, keys: &mut Keyspace, from: &str, now: Now) -> Cmd<()> {
        let limit = if mutant::batch_ignored() {
            None
        } else {
            self.config.batch
        };
        let due = keys.zrange_upto(from, now.due_bound(), limit)?;
        keys.zrem_first(from, due.len())?;
        let ready = self.ready_key();
        let notify = self.key("notify");
        let pushed = if mutant::migrate_one_chunk() {
            &due[..due.len().min(100)]
        } else {
            &due[..]
        };
        for member in pushed {
            keys.rpush(&ready, member)?;
            if !mutant::migrate_without_notify() {
                keys.rpush(&notify, "1")?;
            }
        }
        Ok(())
    }

    /// Reserve one message (the migrate or sweep first); `None` when the ready list is empty.
    pub fn reserve(&mut self, now: Now) -> Op<Option<Delivery>> {
        match self.config.layout {
            Layout::Zset => {
                self.migrate(now)?;
                self.pop_zset(now)
            }
            Layout::Legacy => {
                self.sweep(now)?;
                self.pop_legacy(now)
            }
        }
    }

    /// The reserve script of §1.1: `LPOP`, rewrite (or keep raw), `ZADD :reserved`, consume a
    /// notify token.
    fn pop_zset(&mut self, now: Now) -> Op<Option<Delivery>> {
        let mut keys = self.keys.clone();
        let Some(job) = keys.lpop(&self.ready_key())? else {
            return Ok(None);
        };
        let member = match cjson::reserved_member(&job) {
            Ok(_) if mutant::reserve_stores_raw() => job.clone(),
            Ok(member) => member,
            Err(why) if cjson::aborts_without_guard(why) => {
                // The script dies after its LPOP: Redis has no rollback, the job is gone.
                self.keys = keys;
                return Err(OpError(format!(
                    "the reserve script aborted after LPOP ({why:?} not guarded): the job is lost"
                )));
            }
            Err(_) => job.clone(),
        };
        let score = clock::deadline(now, self.config.retry_after);
        keys.zadd(&self.key("reserved"), &member, score)?;
        if !mutant::reserve_keeps_notify() {
            keys.lpop(&self.key("notify"))?;
        }
        self.keys = keys;
        let poison = member == job || poison::is_poison(&job) && !mutant::zset_poison_only_raw();
        let body = if mutant::handler_gets_member() {
            member.clone()
        } else {
            job
        };
        Ok(Some(Delivery {
            body,
            handle: Handle::Member(member),
            poison,
        }))
    }

    /// The legacy reserve: move the head to `:processing` and record `<token>:<raw>`.
    fn pop_legacy(&mut self, now: Now) -> Op<Option<Delivery>> {
        let token = self.tokens.issue();
        let mut keys = self.keys.clone();
        let Some(raw) = keys.lpop(&self.ready_key())? else {
            return Ok(None);
        };
        keys.rpush(&self.key("processing"), &raw)?;
        let member = mutant::deadline_member(&token, &raw);
        keys.zadd(
            &self.key("deadlines"),
            &member,
            clock::deadline(now, self.config.retry_after),
        )?;
        self.keys = keys;
        let body = unframe(&raw);
        Ok(Some(Delivery {
            poison: poison::is_poison(&body) && !mutant::legacy_poison_delivered(),
            body,
            handle: Handle::Legacy { raw, token },
        }))
    }

    /// The §1.7 sweep: expired deadline members whose raw value is still in `:processing` go
    /// back to the END of the list `<q>`; every expired member leaves the set, a malformed one
    /// (under 34 bytes, or byte 33 not `:`) or an orphan (nothing to `LREM`) only so.
    pub fn sweep(&mut self, now: Now) -> Op<()> {
        let mut keys = self.keys.clone();
        let deadlines = self.key("deadlines");
        let processing = self.key("processing");
        // The sweep is keyed on the logical queue name: in the legacy layout that is the
        // ready list; run on a zset-layout queue it still pushes to the unprefixed `<q>`.
        let ready = self.config.queue.clone();
        let limit = if mutant::batch_ignored() {
            None
        } else {
            self.config.batch
        };
        for m in keys.zrange_upto(&deadlines, now.due_bound(), limit)? {
            if let Some(raw) = raw_of_member(&m) {
                let copies = if mutant::lrem_all_copies() { 0 } else { 1 };
                let removed = keys.lrem(&processing, copies, raw)? > 0;
                if removed || mutant::orphan_resurrected() {
                    let back = if mutant::sweep_bumps_attempts() {
                        release::released_body(raw)
                    } else {
                        raw.to_owned()
                    };
                    if mutant::sweep_to_head() {
                        keys.lpush(&ready, &back)?;
                    } else {
                        keys.rpush(&ready, &back)?;
                    }
                }
            }
            keys.zrem(&deadlines, &m)?;
        }
        self.keys = keys;
        Ok(())
    }

    /// Ack: zset `ZREM :reserved <member>`; legacy the gated settle without a target.
    pub fn ack(&mut self, handle: &Handle) -> Op<()> {
        match handle {
            Handle::Member(member) => {
                self.keys.zrem(&self.key("reserved"), member)?;
                Ok(())
            }
            Handle::Legacy { raw, token } => self.settle(raw, token, None).map(|_| ()),
        }
    }

    /// Release: the body with `attempts + 1` goes back, zset to `:delayed` at
    /// `floor(now)+ceil(delay)` in one script with the `ZREM :reserved`; legacy through the
    /// gated settle to the end of the ready list (no delayed set: the delay is ignored).
    pub fn release(&mut self, d: &Delivery, now: Now, delay: f64, exact: Option<i128>) -> Op<()> {
        let body = release::released_body(&d.body);
        match &d.handle {
            Handle::Member(member) => {
                let mut keys = self.keys.clone();
                keys.zrem(&self.key("reserved"), member)?;
                let score = clock::available_at(now, delay, exact);
                keys.zadd(&self.key("delayed"), &body, score)?;
                self.keys = keys;
                Ok(())
            }
            Handle::Legacy { raw, token } => {
                let ready = self.ready_key();
                self.settle(raw, token, Some((&ready, &body))).map(|_| ())
            }
        }
    }

    /// Dead-letter `d` to `<q>.dlq` with its body, gated on the reservation in both layouts
    /// (the zset DLQ is itself a Laravel queue: `<prefix><q>.dlq` plus its notify list).
    pub fn dead_letter(&mut self, d: &Delivery) -> Op<()> {
        let dlq = format!("{}.dlq", self.config.queue);
        match &d.handle {
            Handle::Member(member) => {
                let mut keys = self.keys.clone();
                if keys.zrem(&self.key("reserved"), member)? {
                    let target = format!("{}{dlq}", mutant::prefix(&self.config.prefix));
                    keys.rpush(&target, &d.body)?;
                    keys.rpush(&format!("{target}:notify"), "1")?;
                }
                self.keys = keys;
                Ok(())
            }
            Handle::Legacy { raw, token } => {
                self.settle(raw, token, Some((&dlq, &d.body))).map(|_| ())
            }
        }
    }

    /// The legacy settle script: only while `<token>:<raw>` is still a deadline member, remove
    /// it, `LREM :processing 1 raw` and push `target` when there is one. Whether it acted.
    fn settle(&mut self, raw: &str, token: &str, target: Option<(&str, &str)>) -> Op<bool> {
        let mut keys = self.keys.clone();
        let member = mutant::deadline_member(token, raw);
        let gated = keys.zrem(&self.key("deadlines"), &member)?;
        let ungated = match target {
            None => mutant::ack_ungated(),
            Some((key, _)) if *key == self.ready_key() => mutant::release_ungated(),
            Some(_) => mutant::dlq_ungated(),
        };
        if !gated && !ungated {
            return Ok(false);
        }
        let copies = if mutant::lrem_all_copies() { 0 } else { 1 };
        keys.lrem(&self.key("processing"), copies, raw)?;
        if let Some((key, body)) = target {
            keys.rpush(key, body)?;
        }
        self.keys = keys;
        Ok(true)
    }
}

/// The raw value of a well-formed deadline member `<32 bytes>:<raw>`.
pub fn raw_of_member(member: &str) -> Option<&str> {
    let bytes = member.as_bytes();
    if mutant::sweep_skips_colon_check() {
        return member.get(33..);
    }
    if bytes.len() >= 34 && bytes[32] == b':' {
        member.get(33..)
    } else {
        None
    }
}

/// The envelope inside a legacy header frame (`{"__bq_frame": <truthy>, "body": "<text>"}`),
/// or the stored value itself.
pub fn unframe(value: &str) -> String {
    if !value.starts_with('{') || !value.contains("\"__bq_frame\"") {
        return value.to_owned();
    }
    let Ok(serde_json::Value::Object(frame)) = serde_json::from_str::<serde_json::Value>(value)
    else {
        return value.to_owned();
    };
    let truthy = match frame.get("__bq_frame") {
        None | Some(serde_json::Value::Null) | Some(serde_json::Value::Bool(false)) => false,
        Some(serde_json::Value::Number(n)) => n.as_f64() != Some(0.0),
        Some(serde_json::Value::String(s)) => !s.is_empty(),
        Some(serde_json::Value::Array(a)) => !a.is_empty(),
        Some(serde_json::Value::Object(o)) => !o.is_empty(),
        Some(serde_json::Value::Bool(true)) => true,
    };
    match frame.get("body") {
        Some(serde_json::Value::String(body)) if truthy => body.clone(),
        _ => value.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn transport(layout: Layout) -> Transport {
        Transport {
            config: Config {
                layout,
                queue: "q".into(),
                prefix: "queues:".into(),
                retry_after: Some(90),
                batch: None,
            },
            keys: Keyspace::default(),
            tokens: Tokens::default(),
        }
    }

    const NOW: Now = Now {
        value: 1000.0,
        integer: Some(1000),
    };

    #[test]
    fn member_shape_and_frames() {
        let raw = "{\"job\":\"urn:a\"}";
        let token = "0123456789abcdef0123456789abcdef";
        assert_eq!(raw_of_member(&format!("{token}:{raw}")), Some(raw));
        assert_eq!(raw_of_member(&format!("{token}x{raw}")), None);
        assert_eq!(raw_of_member(&format!("{token}:")), None);
        let frame = format!(
            "{{\"__bq_frame\":1,\"headers\":{{}},\"body\":{}}}",
            serde_json::Value::from(raw)
        );
        assert_eq!(unframe(&frame), raw);
        assert_eq!(
            unframe("{\"__bq_frame\":0,\"body\":\"x\"}"),
            "{\"__bq_frame\":0,\"body\":\"x\"}"
        );
    }

    #[test]
    fn a_zset_queue_swept_pushes_to_the_unprefixed_list() {
        let mut t = transport(Layout::Zset);
        t.keys.rpush("q:processing", "r").unwrap();
        t.keys
            .zadd(
                "q:processing:deadlines",
                "0123456789abcdef0123456789abcdef:r",
                5.0,
            )
            .unwrap();
        t.sweep(NOW).unwrap();
        assert_eq!(t.keys.lrange("q").unwrap(), ["r"]);
        assert!(t.keys.lrange("queues:q").unwrap().is_empty());
    }

    #[test]
    fn a_type_clash_aborts_the_whole_operation() {
        let mut t = transport(Layout::Zset);
        t.keys.zadd("queues:q", "x", 1.0).unwrap();
        t.keys.zadd("queues:q:delayed", "d", 1.0).unwrap();
        let before = t.keys.clone();
        assert!(t.migrate(NOW).is_err());
        assert_eq!(t.keys, before);
    }
}
