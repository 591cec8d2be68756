//! serde_json values built at their exact size.
//!
//! `serde_json::from_str::<Value>` cannot know how many members an object has until it has read
//! them, so a large object's map grows by doubling, and each growth briefly holds the old and the
//! new table: parsing a data object of a million keys peaks near twice what the value keeps.
//! [`parse_value`] reads a large text twice instead: a first pass checks it and counts the members
//! of every object and array, a second builds each one with exactly that capacity (a small text,
//! where that waste is small, is read once). Every pass goes
//! through serde_json's own deserializer, so what they accept and the value they build are those
//! of `serde_json::from_str::<Value>` (the same number rules, nesting limit and last-wins
//! repeated keys).

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// Below this size a text is parsed in one pass: what growing its maps can briefly waste is
/// small, and a second pass would double the time of the many small files a suite holds.
const SIZED_FROM: usize = 1 << 20;

/// Parses `text` as `serde_json::from_str::<Value>` does; a text of `SIZED_FROM` (1 MiB) or more
/// has each object and array allocated at its final size.
pub fn parse_value(text: &str) -> serde_json::Result<Value> {
    if text.len() < SIZED_FROM {
        return serde_json::from_str(text);
    }
    parse_sized(text)
}

/// Parses `text` in two passes: the first checks it and counts the members of every object and
/// array, the second builds each at that size.
fn parse_sized(text: &str) -> serde_json::Result<Value> {
    build(text, true).map(|(value, _)| value)
}

/// As [`parse_value`], saying too whether some object in `text` names a key twice (keys compared
/// decoded, as [`super::Node::duplicate_keys`] compares them; the value keeps the last, as
/// serde_json does). The builder sees every member it inserts, so this costs no second pass: the
/// positioned tree that says where a key repeats is needed only for a text that repeats one.
pub fn parse_value_noting_repeats(text: &str) -> serde_json::Result<(Value, bool)> {
    build(text, text.len() >= SIZED_FROM)
}

/// Builds the value of `text` (each container at its counted size when `sized`, after a counting
/// pass), and whether some object in it repeats a key.
fn build(text: &str, sized: bool) -> serde_json::Result<(Value, bool)> {
    let mut sizes = Vec::new();
    if sized {
        let mut de = serde_json::Deserializer::from_str(text);
        Count(&mut sizes).deserialize(&mut de)?;
        de.end()?;
    }
    let mut sizes = sizes.into_iter();
    let mut repeated = false;
    let mut de = serde_json::Deserializer::from_str(text);
    let value = Build {
        sizes: &mut sizes,
        repeated: &mut repeated,
    }
    .deserialize(&mut de)?;
    de.end()?;
    Ok((value, repeated))
}

/// Whether `text` parses as `serde_json::from_str::<Value>` would parse it, building nothing.
pub fn check_syntax(text: &str) -> serde_json::Result<()> {
    serde_json::from_str::<Counted>(text).map(drop)
}

/// A value read and dropped (what [`check_syntax`] deserializes).
struct Counted;

impl<'de> serde::Deserialize<'de> for Counted {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(Walk(None))
    }
}

/// Reads one value, pushing the length of each object and array (in document order) to `sizes`.
struct Count<'a>(&'a mut Vec<usize>);

impl<'de> DeserializeSeed<'de> for Count<'_> {
    type Value = Counted;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Counted, D::Error> {
        d.deserialize_any(Walk(Some(self.0)))
    }
}

/// The first pass: visits every value as `Value` would read it, and counts when asked to.
struct Walk<'a>(Option<&'a mut Vec<usize>>);

impl Walk<'_> {
    /// Reserves this container's slot in `sizes` (before its children's, which follow it).
    fn open(&mut self) -> Option<usize> {
        let sizes = self.0.as_mut()?;
        sizes.push(0);
        Some(sizes.len() - 1)
    }

    fn child(&mut self) -> Option<Count<'_>> {
        self.0.as_deref_mut().map(Count)
    }

    fn close(self, slot: Option<usize>, len: usize) {
        if let (Some(sizes), Some(slot)) = (self.0, slot) {
            sizes[slot] = len;
        }
    }
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = Counted;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<Counted, E> {
        Ok(Counted)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Counted, E> {
        Ok(Counted)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Counted, E> {
        Ok(Counted)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Counted, E> {
        Ok(Counted)
    }
    fn visit_str<E>(self, _: &str) -> Result<Counted, E> {
        Ok(Counted)
    }
    fn visit_unit<E>(self) -> Result<Counted, E> {
        Ok(Counted)
    }
    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<Counted, A::Error> {
        let slot = self.open();
        let mut len = 0;
        loop {
            let more = match self.child() {
                Some(seed) => seq.next_element_seed(seed)?,
                None => seq.next_element::<Counted>()?,
            };
            if more.is_none() {
                break;
            }
            len += 1;
        }
        self.close(slot, len);
        Ok(Counted)
    }
    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<Counted, A::Error> {
        let slot = self.open();
        let mut len = 0;
        while map.next_key::<Counted>()?.is_some() {
            match self.child() {
                Some(seed) => map.next_value_seed(seed)?,
                None => map.next_value::<Counted>()?,
            };
            len += 1;
        }
        self.close(slot, len);
        Ok(Counted)
    }
}

/// The second pass: builds the value, taking each container's size from the first pass (none
/// when there was none), and notes a key that an object repeats.
struct Build<'a, I> {
    sizes: &'a mut I,
    repeated: &'a mut bool,
}

impl<I: Iterator<Item = usize>> Build<'_, I> {
    /// The size counted for the next container (0, to grow as it fills, when none was counted).
    fn size(&mut self) -> usize {
        self.sizes.next().unwrap_or_default()
    }

    fn child(&mut self) -> Build<'_, I> {
        Build {
            sizes: &mut *self.sizes,
            repeated: &mut *self.repeated,
        }
    }
}

impl<'de, I: Iterator<Item = usize>> DeserializeSeed<'de> for Build<'_, I> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, I: Iterator<Item = usize>> Visitor<'de> for Build<'_, I> {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        // As serde_json's own visitor: a non-finite float (which JSON text cannot spell) is null.
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(self.size());
        while let Some(item) = seq.next_element_seed(self.child())? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<Value, A::Error> {
        let mut members = Map::with_capacity(self.size());
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value_seed(self.child())?;
            // The last value wins, in the first one's place, as in serde_json's own visitor.
            if members.insert(key, value).is_some() {
                *self.repeated = true;
            }
        }
        Ok(Value::Object(members))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXTS: &[&str] = &[
        "null",
        "true",
        " 0 ",
        "-12",
        "18446744073709551615",
        "1.5e3",
        "\"a\\u00e9\\ud83d\\ude00\"",
        "[]",
        "{}",
        "[1, [2, [3, {}]], {\"a\": []}]",
        "{\"b\": 1, \"a\": {\"c\": [true, null]}, \"b\": 2}",
        "{\"k\": {\"x\": 1}, \"k\": {\"y\": 2}}",
    ];

    #[test]
    fn builds_what_serde_json_builds() {
        for text in TEXTS {
            let theirs: Value = serde_json::from_str(text).unwrap();
            for ours in [
                parse_value(text).unwrap(),
                parse_sized(text).unwrap(),
                parse_value_noting_repeats(text).unwrap().0,
            ] {
                assert_eq!(ours, theirs, "{text}");
                // The same key order too (preserve_order).
                assert_eq!(ours.to_string(), theirs.to_string(), "{text}");
            }
            assert!(check_syntax(text).is_ok(), "{text}");
        }
    }

    #[test]
    fn refuses_what_serde_json_refuses() {
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        for text in [
            "",
            "[1,]",
            "{\"a\" 1}",
            "1e400",
            "[1] x",
            "\"\\ud800\"",
            "nul",
            deep.as_str(),
        ] {
            let theirs = serde_json::from_str::<Value>(text).unwrap_err();
            for ours in [
                parse_value(text).unwrap_err(),
                parse_sized(text).unwrap_err(),
                parse_value_noting_repeats(text).unwrap_err(),
                check_syntax(text).unwrap_err(),
            ] {
                assert_eq!(ours.to_string(), theirs.to_string(), "{text:?}");
            }
        }
    }

    #[test]
    fn repeated_keys_are_found_where_the_tree_finds_them() {
        let deep_repeat = format!(
            "{}{{\"k\": 1, \"k\": 2}}{}",
            "[".repeat(100),
            "]".repeat(100)
        );
        let zeros = "0,".repeat(SIZED_FROM / 2);
        let big_repeat = format!("{{\"a\": [{zeros}0], \"b\": {{\"k\": 1, \"k\": 2}}}}");
        let big_plain = format!("{{\"a\": [{zeros}0], \"b\": {{\"k\": 1, \"a\": 2}}}}");
        for text in TEXTS.iter().copied().chain([
            "{\"a\": 1, \"b\": {\"a\": 2}}",
            "[{\"x\": 1}, {\"x\": 2}]",
            "{\"a\": 1, \"\\u0061\": 2}",
            "{\"a\\/b\": 1, \"a/b\": 2}",
            "{\"list\": [0, {\"z\": {\"q\": 1, \"p\": 0, \"q\": 2}}]}",
            "{\"\": 1, \"\": 2}",
            "{\"é\": 1, \"e\\u0301\": 2}",
            deep_repeat.as_str(),
            // Texts of SIZED_FROM bytes or more are built after a counting pass.
            big_repeat.as_str(),
            big_plain.as_str(),
        ]) {
            let tree = crate::json::parse(text).unwrap();
            assert_eq!(
                parse_value_noting_repeats(text).unwrap().1,
                !tree.duplicate_keys().is_empty(),
                "{text}"
            );
        }
        assert!(parse_value_noting_repeats("{\"a\": 1, \"a\": ").is_err());
    }

    #[test]
    fn containers_are_allocated_at_their_size() {
        let Value::Object(top) =
            parse_sized("{\"a\": [1, 2, 3], \"b\": {\"x\": 1, \"y\": 2}}").unwrap()
        else {
            panic!("an object");
        };
        assert_eq!(top["a"].as_array().map(Vec::capacity), Some(3));
        let wide: String = format!(
            "{{{}}}",
            (0..1000)
                .map(|i| format!("\"k{i}\": {i}"))
                .collect::<Vec<_>>()
                .join(",")
        );
        let Value::Array(items) = parse_sized(&format!("[{wide}, [{wide}]]")).unwrap() else {
            panic!("an array");
        };
        assert_eq!(items.capacity(), 2);
        assert_eq!(items[0].as_object().map(Map::len), Some(1000));
        assert_eq!(items[1].as_array().map(Vec::capacity), Some(1));
        // A text of SIZED_FROM bytes or more takes the sized path.
        let big = format!("[{}0]", "0,".repeat(SIZED_FROM / 2));
        let Value::Array(items) = parse_value(&big).unwrap() else {
            panic!("an array");
        };
        assert_eq!(items.capacity(), items.len());
    }
}
