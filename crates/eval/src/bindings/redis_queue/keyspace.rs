//! An in-memory Redis keyspace with the two value types the queue uses: lists and sorted sets.
//!
//! As in Redis, a key that holds an empty list or sorted set does not exist, and a command on
//! a key of the other type fails (`WRONGTYPE`). A sorted set is ordered by score, then by the
//! member's bytes; a score may be `+inf`.

use std::collections::{BTreeMap, VecDeque};

/// A value stored under a key.
#[derive(Debug, Clone, PartialEq)]
enum Entry {
    List(VecDeque<String>),
    Zset(Vec<(String, f64)>),
}

/// A command ran on a key holding the other type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrongType(pub String);

impl std::fmt::Display for WrongType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "WRONGTYPE: the key `{}` holds another type of value",
            self.0
        )
    }
}

/// Result of a keyspace command.
pub type Cmd<T> = Result<T, WrongType>;

/// The whole keyspace.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Keyspace {
    keys: BTreeMap<String, Entry>,
}

impl Keyspace {
    fn list_mut(&mut self, key: &str) -> Cmd<&mut VecDeque<String>> {
        let entry = self
            .keys
            .entry(key.to_owned())
            .or_insert_with(|| Entry::List(VecDeque::new()));
        match entry {
            Entry::List(list) => Ok(list),
            Entry::Zset(_) => Err(WrongType(key.to_owned())),
        }
    }

    fn zset_mut(&mut self, key: &str) -> Cmd<&mut Vec<(String, f64)>> {
        let entry = self
            .keys
            .entry(key.to_owned())
            .or_insert_with(|| Entry::Zset(Vec::new()));
        match entry {
            Entry::Zset(set) => Ok(set),
            Entry::List(_) => Err(WrongType(key.to_owned())),
        }
    }

    /// Drops `key` when it holds an empty value (Redis deletes it).
    fn tidy(&mut self, key: &str) {
        let empty = match self.keys.get(key) {
            Some(Entry::List(l)) => l.is_empty(),
            Some(Entry::Zset(z)) => z.is_empty(),
            None => false,
        };
        if empty {
            self.keys.remove(key);
        }
    }

    /// The list at `key`, head first (empty when the key does not exist).
    pub fn lrange(&self, key: &str) -> Cmd<Vec<String>> {
        match self.keys.get(key) {
            None => Ok(Vec::new()),
            Some(Entry::List(l)) => Ok(l.iter().cloned().collect()),
            Some(Entry::Zset(_)) => Err(WrongType(key.to_owned())),
        }
    }

    /// LLEN.
    pub fn llen(&self, key: &str) -> Cmd<usize> {
        match self.keys.get(key) {
            None => Ok(0),
            Some(Entry::List(l)) => Ok(l.len()),
            Some(Entry::Zset(_)) => Err(WrongType(key.to_owned())),
        }
    }

    /// RPUSH of one value.
    pub fn rpush(&mut self, key: &str, value: &str) -> Cmd<()> {
        self.list_mut(key)?.push_back(value.to_owned());
        Ok(())
    }

    /// LPUSH of one value.
    pub fn lpush(&mut self, key: &str, value: &str) -> Cmd<()> {
        self.list_mut(key)?.push_front(value.to_owned());
        Ok(())
    }

    /// LPOP.
    pub fn lpop(&mut self, key: &str) -> Cmd<Option<String>> {
        if !self.keys.contains_key(key) {
            return Ok(None);
        }
        let value = self.list_mut(key)?.pop_front();
        self.tidy(key);
        Ok(value)
    }

    /// LREM `key` `count` `value` from the head (`count` 0 removes every copy); the number
    /// removed.
    pub fn lrem(&mut self, key: &str, count: usize, value: &str) -> Cmd<usize> {
        if !self.keys.contains_key(key) {
            return Ok(0);
        }
        let list = self.list_mut(key)?;
        let mut removed = 0;
        let mut i = 0;
        while i < list.len() && (count == 0 || removed < count) {
            if list[i] == value {
                list.remove(i);
                removed += 1;
            } else {
                i += 1;
            }
        }
        self.tidy(key);
        Ok(removed)
    }

    /// The sorted set at `key` in order (empty when the key does not exist).
    pub fn zrange(&self, key: &str) -> Cmd<Vec<(String, f64)>> {
        match self.keys.get(key) {
            None => Ok(Vec::new()),
            Some(Entry::Zset(z)) => Ok(z.clone()),
            Some(Entry::List(_)) => Err(WrongType(key.to_owned())),
        }
    }

    /// ZADD of one member (a present member only changes its score).
    pub fn zadd(&mut self, key: &str, member: &str, score: f64) -> Cmd<()> {
        let set = self.zset_mut(key)?;
        set.retain(|(m, _)| m != member);
        let at = set
            .iter()
            .position(|(m, s)| {
                s.total_cmp(&score)
                    .then_with(|| m.as_bytes().cmp(member.as_bytes()))
                    .is_gt()
            })
            .unwrap_or(set.len());
        set.insert(at, (member.to_owned(), score));
        Ok(())
    }

    /// ZREM of one member; whether it was there.
    pub fn zrem(&mut self, key: &str, member: &str) -> Cmd<bool> {
        if !self.keys.contains_key(key) {
            return Ok(false);
        }
        let set = self.zset_mut(key)?;
        let before = set.len();
        set.retain(|(m, _)| m != member);
        let removed = set.len() != before;
        self.tidy(key);
        Ok(removed)
    }

    /// ZRANGEBYSCORE `key` -inf `max` LIMIT 0 `limit` (`None`: no limit): the members, in order.
    pub fn zrange_upto(&self, key: &str, max: f64, limit: Option<usize>) -> Cmd<Vec<String>> {
        let all = self.zrange(key)?;
        Ok(all
            .into_iter()
            .take_while(|(_, s)| *s <= max)
            .take(limit.unwrap_or(usize::MAX))
            .map(|(m, _)| m)
            .collect())
    }

    /// ZREMRANGEBYRANK `key` 0 `n - 1`.
    pub fn zrem_first(&mut self, key: &str, n: usize) -> Cmd<()> {
        if !self.keys.contains_key(key) {
            return Ok(());
        }
        let set = self.zset_mut(key)?;
        let n = n.min(set.len());
        set.drain(..n);
        self.tidy(key);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_wrong_type_names_its_key_in_words() {
        let mut keys = Keyspace::default();
        keys.zadd("queues:q:delayed", "m", 1.0).unwrap();
        let error = keys.rpush("queues:q:delayed", "x").unwrap_err();
        assert_eq!(
            error.to_string(),
            "WRONGTYPE: the key `queues:q:delayed` holds another type of value"
        );
    }

    use super::*;

    #[test]
    fn zset_orders_by_score_then_member_bytes() {
        let mut k = Keyspace::default();
        k.zadd("z", "b", 2.0).unwrap();
        k.zadd("z", "a", f64::INFINITY).unwrap();
        k.zadd("z", "c", 1.0).unwrap();
        k.zadd("z", "a2", 2.0).unwrap();
        k.zadd("z", "c", 2.0).unwrap();
        let members: Vec<String> = k.zrange("z").unwrap().into_iter().map(|(m, _)| m).collect();
        assert_eq!(members, ["a2", "b", "c", "a"]);
        assert_eq!(k.zrange_upto("z", 2.0, Some(2)).unwrap(), ["a2", "b"]);
        assert_eq!(k.zrange_upto("z", 1e300, None).unwrap().len(), 3);
    }

    #[test]
    fn empty_values_vanish_and_types_clash() {
        let mut k = Keyspace::default();
        k.rpush("l", "x").unwrap();
        k.rpush("l", "x").unwrap();
        assert_eq!(k.lrem("l", 1, "x").unwrap(), 1);
        assert_eq!(k.lrem("l", 0, "x").unwrap(), 1);
        assert_eq!(k, Keyspace::default());
        k.rpush("l", "x").unwrap();
        assert!(k.zadd("l", "m", 1.0).is_err());
        assert!(k.zrem("l", "m").is_err());
    }
}
