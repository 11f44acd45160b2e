//! [`Map`]: an object's members in insertion order.
//!
//! The members are one vector of (key, value) entries. Most objects are
//! small (a record of a few fields), and for them a linear search over the
//! keys is faster than hashing one, so only maps of more than
//! [`INDEX_ABOVE`] members carry a hash index (positions in the vector,
//! keyed by the text of the key), kept boxed so that every map, indexed or
//! not, takes 24 bytes and a [`Value`] 32.

use std::fmt;
use std::hash::{BuildHasher, RandomState};
use std::ops::{Deref, Index};
use std::sync::Arc;

use hashbrown::HashTable;

use crate::Value;

/// Maps with more members than this carry a hash index; smaller ones find
/// a key by comparing it with each key in turn.
pub(crate) const INDEX_ABOVE: usize = 16;

/// A member's key.
///
/// - Struct field names are `&'static str`: keeping them borrowed saves an
///   allocation per field of every serialized struct (measured: about a
///   fifth of `to_value`'s time on flat records).
/// - The parser shares one allocation among the equal keys of an input
///   (every record of an array repeats the same keys).
/// - Keys inserted by a caller are boxed, as they come.
#[derive(Clone)]
pub(crate) enum Key {
    Static(&'static str),
    Boxed(Box<str>),
    Shared(Arc<str>),
}

impl Deref for Key {
    type Target = str;

    #[inline]
    fn deref(&self) -> &str {
        match self {
            Key::Static(s) => s,
            Key::Boxed(s) => s,
            Key::Shared(s) => s,
        }
    }
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl From<Key> for String {
    fn from(key: Key) -> String {
        match key {
            Key::Boxed(s) => s.into_string(),
            Key::Static(s) => s.to_owned(),
            Key::Shared(s) => (*s).to_owned(),
        }
    }
}

/// One member.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub(crate) key: Key,
    pub(crate) value: Value,
}

impl Entry {
    #[inline]
    fn key(&self) -> &str {
        &self.key
    }
}

/// A hash index over a slice of entries with distinct keys: each key's
/// position. The slice is passed to every call (the index does not own
/// it), so the parser can index the members of an open object on its
/// scratch stack and hand the index to the finished [`Map`].
#[derive(Clone)]
pub(crate) struct KeyIndex {
    table: HashTable<Slot>,
    // The standard library's keyed SipHash, as `HashMap` uses: keys come
    // from untrusted input, and only large maps hash at all.
    hasher: RandomState,
}

/// A key's position, with its hash: growing the table rehashes from the
/// stored hashes instead of hashing every key again (measured: hashing was
/// two thirds of the index's cost on keyed.json's 500-key object).
#[derive(Clone, Copy)]
struct Slot {
    hash: u64,
    at: usize,
}

impl KeyIndex {
    /// An index of `entries`, whose keys must be distinct.
    pub(crate) fn build(entries: &[Entry]) -> KeyIndex {
        let mut index = KeyIndex {
            table: HashTable::with_capacity(entries.len()),
            hasher: RandomState::new(),
        };
        for (at, entry) in entries.iter().enumerate() {
            let hash = index.hash(entry.key());
            index.push(hash, at);
        }
        index
    }

    /// The hash of `key`, for [`KeyIndex::find`] and [`KeyIndex::push`].
    #[inline]
    pub(crate) fn hash(&self, key: &str) -> u64 {
        self.hasher.hash_one(key)
    }

    /// The position in `entries` of `key`, whose hash is `hash`.
    pub(crate) fn find(&self, entries: &[Entry], key: &str, hash: u64) -> Option<usize> {
        self.table
            .find(hash, |slot| {
                slot.hash == hash && entries.get(slot.at).is_some_and(|e| e.key() == key)
            })
            .map(|slot| slot.at)
    }

    /// Indexes the key at position `at`, whose hash is `hash` and which
    /// must not be indexed yet.
    pub(crate) fn push(&mut self, hash: u64, at: usize) {
        self.table
            .insert_unique(hash, Slot { hash, at }, |slot| slot.hash);
    }

    /// Forgets `entries[i]` before it is removed from `entries`: the
    /// positions after it move down by one.
    fn remove(&mut self, entries: &[Entry], i: usize) {
        let Some(entry) = entries.get(i) else { return };
        let hash = self.hash(entry.key());
        if let Ok(found) = self.table.find_entry(hash, |slot| slot.at == i) {
            found.remove();
        }
        for slot in self.table.iter_mut() {
            if slot.at > i {
                slot.at -= 1;
            }
        }
    }
}

/// The members of a JSON object, in insertion order.
///
/// Order is part of the data here: a parsed object keeps its source key
/// order, a struct keeps its declaration order, and every codec writes
/// members in this order. Keys are distinct. Finding a key is a linear
/// search in small maps and a hash lookup in large ones; the
/// representation is private.
#[derive(Clone)]
pub struct Map {
    repr: Repr,
}

#[derive(Clone)]
enum Repr {
    Small(Vec<Entry>),
    Indexed(Box<Indexed>),
}

#[derive(Clone)]
struct Indexed {
    entries: Vec<Entry>,
    index: KeyIndex,
}

impl Default for Map {
    fn default() -> Map {
        Map {
            repr: Repr::Small(Vec::new()),
        }
    }
}

/// An iterator over a [`Map`]'s members, in order.
#[derive(Clone, Debug)]
pub struct Iter<'a> {
    inner: std::slice::Iter<'a, Entry>,
}

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a str, &'a Value);

    #[inline]
    fn next(&mut self) -> Option<(&'a str, &'a Value)> {
        self.inner.next().map(|e| (e.key(), &e.value))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.inner.next_back().map(|e| (e.key(), &e.value))
    }
}

impl ExactSizeIterator for Iter<'_> {}

/// An iterator over a [`Map`]'s members, by value, in order.
#[derive(Debug)]
pub struct IntoIter {
    inner: std::vec::IntoIter<Entry>,
}

impl Iterator for IntoIter {
    type Item = (String, Value);

    fn next(&mut self) -> Option<(String, Value)> {
        self.inner.next().map(|e| (String::from(e.key), e.value))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl DoubleEndedIterator for IntoIter {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.inner
            .next_back()
            .map(|e| (String::from(e.key), e.value))
    }
}

impl ExactSizeIterator for IntoIter {}

impl Map {
    /// An empty map.
    pub fn new() -> Map {
        Map::default()
    }

    /// An empty map with room for `capacity` members.
    pub fn with_capacity(capacity: usize) -> Map {
        Map {
            repr: Repr::Small(Vec::with_capacity(capacity)),
        }
    }

    /// A map of `entries`, whose keys must be distinct, with `index` over
    /// them when the caller built one.
    pub(crate) fn from_distinct(entries: Vec<Entry>, index: Option<KeyIndex>) -> Map {
        let repr = match index {
            Some(index) => Repr::Indexed(Box::new(Indexed { entries, index })),
            None if entries.len() > INDEX_ABOVE => {
                let index = KeyIndex::build(&entries);
                Repr::Indexed(Box::new(Indexed { entries, index }))
            }
            None => Repr::Small(entries),
        };
        Map { repr }
    }

    #[inline]
    fn entries(&self) -> &[Entry] {
        match &self.repr {
            Repr::Small(entries) => entries,
            Repr::Indexed(indexed) => &indexed.entries,
        }
    }

    /// The entries, to change values in place (never keys: the index
    /// depends on them).
    #[inline]
    fn entries_mut(&mut self) -> &mut [Entry] {
        match &mut self.repr {
            Repr::Small(entries) => entries,
            Repr::Indexed(indexed) => &mut indexed.entries,
        }
    }

    /// The position of `key`.
    #[inline]
    fn find(&self, key: &str) -> Option<usize> {
        match &self.repr {
            Repr::Small(entries) => entries.iter().position(|e| e.key() == key),
            Repr::Indexed(indexed) => {
                let hash = indexed.index.hash(key);
                indexed.index.find(&indexed.entries, key, hash)
            }
        }
    }

    fn insert_key(&mut self, key: Key, value: Value) -> Option<Value> {
        match &mut self.repr {
            Repr::Small(entries) => {
                if let Some(entry) = entries.iter_mut().find(|e| *e.key == *key) {
                    return Some(std::mem::replace(&mut entry.value, value));
                }
                entries.push(Entry { key, value });
                if entries.len() > INDEX_ABOVE {
                    let entries = std::mem::take(entries);
                    *self = Map::from_distinct(entries, None);
                }
            }
            Repr::Indexed(indexed) => {
                let hash = indexed.index.hash(&key);
                if let Some(i) = indexed.index.find(&indexed.entries, &key, hash) {
                    return Some(std::mem::replace(&mut indexed.entries[i].value, value));
                }
                indexed.index.push(hash, indexed.entries.len());
                indexed.entries.push(Entry { key, value });
            }
        }
        None
    }

    /// Inserts a member. A new key goes last; an existing key keeps its
    /// place and its old value is returned.
    pub fn insert(&mut self, key: impl Into<String>, value: Value) -> Option<Value> {
        self.insert_key(Key::Boxed(key.into().into_boxed_str()), value)
    }

    /// [`Map::insert`] for a key known at compile time (a struct field's
    /// name): the key is kept by reference, not copied.
    pub fn insert_static(&mut self, key: &'static str, value: Value) -> Option<Value> {
        self.insert_key(Key::Static(key), value)
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.find(key).map(|i| &self.entries()[i].value)
    }

    /// The value of `key`, mutably.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.find(key).map(|i| &mut self.entries_mut()[i].value)
    }

    /// Whether `key` is a member.
    pub fn contains_key(&self, key: &str) -> bool {
        self.find(key).is_some()
    }

    /// Removes `key`, keeping the order of the others (O(n)).
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        let i = self.find(key)?;
        let removed = match &mut self.repr {
            Repr::Small(entries) => entries.remove(i),
            Repr::Indexed(indexed) => {
                indexed.index.remove(&indexed.entries, i);
                indexed.entries.remove(i)
            }
        };
        Some(removed.value)
    }

    /// The position of `key` in the map.
    pub fn index_of(&self, key: &str) -> Option<usize> {
        self.find(key)
    }

    /// The member at position `index`.
    pub fn get_index(&self, index: usize) -> Option<(&str, &Value)> {
        self.entries().get(index).map(|e| (e.key(), &e.value))
    }

    /// The number of members.
    pub fn len(&self) -> usize {
        self.entries().len()
    }

    /// Whether the map has no members.
    pub fn is_empty(&self) -> bool {
        self.entries().is_empty()
    }

    /// The members, in order.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            inner: self.entries().iter(),
        }
    }

    /// The keys, in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &str> + ExactSizeIterator {
        self.entries().iter().map(Entry::key)
    }

    /// The values, in order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &Value> + ExactSizeIterator {
        self.entries().iter().map(|e| &e.value)
    }

    /// Sorts the members by key (byte order of the UTF-8 text), the order
    /// `serde_json` gives a map without `preserve_order`.
    pub fn sort_keys(&mut self) {
        match &mut self.repr {
            Repr::Small(entries) => entries.sort_unstable_by(|a, b| a.key().cmp(b.key())),
            Repr::Indexed(indexed) => {
                indexed
                    .entries
                    .sort_unstable_by(|a, b| a.key().cmp(b.key()));
                indexed.index = KeyIndex::build(&indexed.entries);
            }
        }
    }
}

impl PartialEq for Map {
    /// Equal when both have the same members, in any order (as
    /// `IndexMap`'s equality, which this type had before).
    fn eq(&self, other: &Map) -> bool {
        let (ours, theirs) = (self.entries(), other.entries());
        if ours.len() != theirs.len() {
            return false;
        }
        // Usually the same order: compare pairwise up to the first key that
        // differs, then look each remaining key up.
        let same_keys = ours
            .iter()
            .zip(theirs)
            .take_while(|(a, b)| a.key() == b.key())
            .count();
        ours[..same_keys]
            .iter()
            .zip(theirs)
            .all(|(a, b)| a.value == b.value)
            && ours[same_keys..]
                .iter()
                .all(|e| other.get(e.key()) == Some(&e.value))
    }
}

impl Eq for Map {}

impl fmt::Debug for Map {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl Index<&str> for Map {
    type Output = Value;

    /// The value of `key`, or [`Value::Null`] when there is none (as
    /// `serde_json::Value` indexes).
    fn index(&self, key: &str) -> &Value {
        static NULL: Value = Value::Null;
        self.get(key).unwrap_or(&NULL)
    }
}

impl<'a> IntoIterator for &'a Map {
    type Item = (&'a str, &'a Value);
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl IntoIterator for Map {
    type Item = (String, Value);
    type IntoIter = IntoIter;

    fn into_iter(self) -> IntoIter {
        let entries = match self.repr {
            Repr::Small(entries) => entries,
            Repr::Indexed(indexed) => indexed.entries,
        };
        IntoIter {
            inner: entries.into_iter(),
        }
    }
}

impl<K: Into<String>> FromIterator<(K, Value)> for Map {
    fn from_iter<I: IntoIterator<Item = (K, Value)>>(iter: I) -> Map {
        let iter = iter.into_iter();
        let mut map = Map::with_capacity(iter.size_hint().0);
        map.extend(iter);
        map
    }
}

impl<K: Into<String>> Extend<(K, Value)> for Map {
    fn extend<I: IntoIterator<Item = (K, Value)>>(&mut self, iter: I) {
        for (key, value) in iter {
            self.insert(key, value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every operation on maps just below, at and above the index
    /// threshold, against a plain list of pairs as the model.
    #[test]
    fn operations_agree_across_the_index_threshold() {
        for len in [0, 1, INDEX_ABOVE - 1, INDEX_ABOVE, INDEX_ABOVE + 1, 3 * INDEX_ABOVE] {
            let mut map = Map::new();
            let mut model: Vec<(String, Value)> = Vec::new();
            for i in 0..len {
                // Keys in no particular order, one of them static.
                let key = format!("k{}", (i * 7) % (len.max(1) * 2));
                assert_eq!(map.insert(key.clone(), Value::from(i)), None, "{len}");
                model.push((key, Value::from(i)));
            }
            map.insert_static("static", Value::Null);
            model.push(("static".into(), Value::Null));
            assert_eq!(map.len(), model.len());
            for (i, (key, value)) in model.iter().enumerate() {
                assert_eq!(map.get(key), Some(value), "{len} {key}");
                assert_eq!(map.index_of(key), Some(i), "{len} {key}");
                assert_eq!(map.get_index(i), Some((key.as_str(), value)), "{len}");
            }
            assert_eq!(map.get("absent"), None);

            // Replacing keeps the position.
            let (first, _) = model[0].clone();
            assert_eq!(map.insert(first.clone(), Value::from("new")), Some(model[0].1.clone()));
            model[0].1 = Value::from("new");
            assert_eq!(map.index_of(&first), Some(0));

            // Removing keeps the order of the others, and the index agrees.
            let (middle, value) = model.remove(model.len() / 2);
            assert_eq!(map.remove(&middle), Some(value));
            assert_eq!(map.remove(&middle), None);
            let pairs: Vec<(String, Value)> =
                map.iter().map(|(k, v)| (k.to_owned(), v.clone())).collect();
            assert_eq!(pairs, model, "{len}");
            for (i, (key, _)) in model.iter().enumerate() {
                assert_eq!(map.index_of(key), Some(i), "{len} {key}");
            }

            // Sorting sorts, and lookups still work.
            map.sort_keys();
            model.sort_by(|a, b| a.0.cmp(&b.0));
            let keys: Vec<&str> = map.keys().collect();
            let expected: Vec<&str> = model.iter().map(|(k, _)| k.as_str()).collect();
            assert_eq!(keys, expected);
            for (i, (key, value)) in model.iter().enumerate() {
                assert_eq!(map.get(key), Some(value));
                assert_eq!(map.index_of(key), Some(i));
            }
            let owned: Vec<(String, Value)> = map.clone().into_iter().collect();
            assert_eq!(owned, model);
        }
    }

    #[test]
    fn equality_ignores_order() {
        for len in [2, INDEX_ABOVE + 2] {
            let forward: Map = (0..len).map(|i| (format!("{i}"), Value::from(i))).collect();
            let backward: Map = (0..len)
                .rev()
                .map(|i| (format!("{i}"), Value::from(i)))
                .collect();
            assert_eq!(forward, backward);
            let mut changed = backward.clone();
            changed.insert("0", Value::Null);
            assert_ne!(forward, changed);
            let mut longer = forward.clone();
            longer.insert("extra", Value::Null);
            assert_ne!(forward, longer);
        }
    }

    #[test]
    fn from_iter_keeps_the_last_value_at_the_first_place() {
        let map: Map = [("a", 1), ("b", 2), ("a", 3)]
            .into_iter()
            .map(|(k, v)| (k, Value::from(v)))
            .collect();
        let pairs: Vec<_> = map.iter().collect();
        assert_eq!(pairs, [("a", &Value::from(3)), ("b", &Value::from(2))]);
    }
}
