//! [`Map`]: an object's members in insertion order.
//!
//! Three representations behind one API, each for where maps come from:
//!
//! - **Small**: one vector of (key, value) entries, searched linearly. Most
//!   objects are small (a record of a few fields), and for them comparing
//!   the key with each key in turn is faster than hashing it. Maps built
//!   with [`Map::insert`] and by [`crate::to_value`] start here.
//! - **Indexed**: the same entries with a hash index of positions, for maps
//!   of more than [`INDEX_ABOVE`] members.
//! - **Shaped**: what the parser makes. Objects with the same keys in the
//!   same order (the records of an array, the `customer` of every order)
//!   share one [`Shape`], their key list; each map holds only its values.
//!   A member then costs a `Value` (32 bytes) instead of an entry (56), and
//!   the parser matches keys against the shape instead of storing, hashing
//!   and de-duplicating each. Changing a shaped map's keys (inserting a new
//!   key, removing, sorting) first turns it into a small or indexed map.
//!
//! A map takes 32 bytes, and so does a [`Value`]: the map's own tag has
//! room for the value's.

use std::fmt;
use std::hash::{BuildHasher, RandomState};
use std::ops::{Deref, Index};
use std::sync::Arc;

use hashbrown::HashTable;

use super::Value;

/// Maps with more members than this carry a hash index; smaller ones find
/// a key by comparing it with each key in turn, which up to about this
/// size costs less than hashing the key (SipHash).
pub(crate) const INDEX_ABOVE: usize = 24;

/// A member's key. Struct field names are `&'static str`: keeping them
/// borrowed saves an allocation per field of every serialized struct.
/// Parsed objects with the same keys share them through a [`Shape`]
/// instead.
#[derive(Clone)]
pub(crate) enum Key {
    Static(&'static str),
    Boxed(Box<str>),
}

impl Deref for Key {
    type Target = str;

    #[inline]
    fn deref(&self) -> &str {
        match self {
            Key::Static(s) => s,
            Key::Boxed(s) => s,
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

/// A hash index of distinct keys: each key's position. The keys are not
/// in the index: the caller checks a candidate position (`is_key`), so the
/// parser can index the keys of an open object on its scratch stack and
/// hand the index to the finished map's shape.
#[derive(Clone)]
pub(crate) struct KeyIndex {
    table: HashTable<Slot>,
    // The standard library's keyed SipHash, as `HashMap` uses: keys come
    // from untrusted input, and only large maps hash at all.
    hasher: RandomState,
}

/// A key's position, with its hash: growing the table rehashes from the
/// stored hashes instead of hashing every key again. SipHash is nearly
/// all of the index's cost, so each key is hashed once, not again on
/// every growth.
#[derive(Clone, Copy)]
struct Slot {
    hash: u64,
    at: usize,
}

impl KeyIndex {
    /// An index of `keys`, which must be distinct.
    pub(crate) fn build<'k>(keys: impl ExactSizeIterator<Item = &'k str>) -> KeyIndex {
        let mut index = KeyIndex {
            table: HashTable::with_capacity(keys.len()),
            hasher: RandomState::new(),
        };
        for (at, key) in keys.enumerate() {
            let hash = index.hash(key);
            index.push(hash, at);
        }
        index
    }

    /// The hash of `key`, for [`KeyIndex::find`] and [`KeyIndex::push`].
    #[inline]
    pub(crate) fn hash(&self, key: &str) -> u64 {
        self.hasher.hash_one(key)
    }

    /// The position of the key whose hash is `hash`, confirmed by `is_key`.
    pub(crate) fn find(&self, hash: u64, mut is_key: impl FnMut(usize) -> bool) -> Option<usize> {
        self.table
            .find(hash, |slot| slot.hash == hash && is_key(slot.at))
            .map(|slot| slot.at)
    }

    /// Indexes the key at position `at`, whose hash is `hash` and which
    /// must not be indexed yet.
    pub(crate) fn push(&mut self, hash: u64, at: usize) {
        self.table
            .insert_unique(hash, Slot { hash, at }, |slot| slot.hash);
    }

    /// Forgets the key at position `at`, whose hash is `hash`: the positions
    /// after it move down by one.
    fn remove(&mut self, hash: u64, at: usize) {
        if let Ok(found) = self.table.find_entry(hash, |slot| slot.at == at) {
            found.remove();
        }
        for slot in self.table.iter_mut() {
            if slot.at > at {
                slot.at -= 1;
            }
        }
    }
}

/// The keys of shaped maps: distinct, in order, shared by every parsed
/// object that has exactly these keys in this order.
#[derive(Debug)]
pub(crate) struct Shape {
    keys: Box<[Key]>,
    /// Past [`INDEX_ABOVE`] keys, a hash index of them.
    index: Option<KeyIndex>,
}

impl Shape {
    /// The shape of `keys`, which must be distinct, with `index` over them
    /// when the caller built one.
    pub(crate) fn new(keys: Vec<Key>, index: Option<KeyIndex>) -> Shape {
        let index = match index {
            None if keys.len() > INDEX_ABOVE => Some(KeyIndex::build(keys.iter().map(|k| &**k))),
            index => index,
        };
        Shape {
            keys: keys.into_boxed_slice(),
            index,
        }
    }

    /// The keys, in order.
    #[inline]
    pub(crate) fn keys(&self) -> &[Key] {
        &self.keys
    }

    fn find(&self, key: &str) -> Option<usize> {
        match &self.index {
            None => self.keys.iter().position(|k| **k == *key),
            Some(index) => index.find(index.hash(key), |at| {
                self.keys.get(at).is_some_and(|k| **k == *key)
            }),
        }
    }
}

impl fmt::Debug for KeyIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeyIndex")
            .field("len", &self.table.len())
            .finish()
    }
}

/// The members of a JSON object, in insertion order.
///
/// Order is part of the data here: a parsed object keeps its source key
/// order, a struct keeps its declaration order, and every codec writes
/// members in this order. Keys are distinct. Finding a key is a linear
/// search in small maps and a hash lookup in large ones; the
/// representation is private.
#[derive(Clone, Default)]
pub struct Map {
    repr: Repr,
}

#[derive(Clone)]
enum Repr {
    Small(Vec<Entry>),
    Indexed(Box<Indexed>),
    /// One value per key of the shape, in its order.
    Shaped(Arc<Shape>, Box<[Value]>),
}

#[derive(Clone)]
struct Indexed {
    entries: Vec<Entry>,
    index: KeyIndex,
}

/// The entries of a map that owns its keys.
enum Owned<'a> {
    Small(&'a mut Vec<Entry>),
    Indexed(&'a mut Indexed),
}

impl Default for Repr {
    fn default() -> Repr {
        Repr::Small(Vec::new())
    }
}

/// An iterator over a [`Map`]'s members, in order.
#[derive(Clone, Debug)]
pub struct Iter<'a> {
    inner: IterRepr<'a>,
}

#[derive(Clone, Debug)]
enum IterRepr<'a> {
    Entries(std::slice::Iter<'a, Entry>),
    Shaped(std::slice::Iter<'a, Key>, std::slice::Iter<'a, Value>),
}

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a str, &'a Value);

    #[inline]
    fn next(&mut self) -> Option<(&'a str, &'a Value)> {
        match &mut self.inner {
            IterRepr::Entries(entries) => entries.next().map(|e| (e.key(), &e.value)),
            IterRepr::Shaped(keys, values) => Some((keys.next()?, values.next()?)),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let len = match &self.inner {
            IterRepr::Entries(entries) => entries.len(),
            IterRepr::Shaped(_, values) => values.len(),
        };
        (len, Some(len))
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        match &mut self.inner {
            IterRepr::Entries(entries) => entries.next_back().map(|e| (e.key(), &e.value)),
            IterRepr::Shaped(keys, values) => Some((keys.next_back()?, values.next_back()?)),
        }
    }
}

impl ExactSizeIterator for Iter<'_> {}

/// An iterator over a [`Map`]'s members, by value, in order.
#[derive(Debug)]
pub struct IntoIter {
    inner: IntoIterRepr,
}

#[derive(Debug)]
enum IntoIterRepr {
    Entries(std::vec::IntoIter<Entry>),
    /// The keys at `keys` of the shape, with the values left.
    Shaped {
        shape: Arc<Shape>,
        keys: std::ops::Range<usize>,
        values: std::vec::IntoIter<Value>,
    },
}

impl IntoIterRepr {
    fn shaped_key(shape: &Shape, at: Option<usize>) -> Option<String> {
        shape.keys().get(at?).map(|k| (**k).to_owned())
    }
}

impl Iterator for IntoIter {
    type Item = (String, Value);

    fn next(&mut self) -> Option<(String, Value)> {
        match &mut self.inner {
            IntoIterRepr::Entries(entries) => {
                entries.next().map(|e| (String::from(e.key), e.value))
            }
            IntoIterRepr::Shaped {
                shape,
                keys,
                values,
            } => Some((
                IntoIterRepr::shaped_key(shape, keys.next())?,
                values.next()?,
            )),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let len = match &self.inner {
            IntoIterRepr::Entries(entries) => entries.len(),
            IntoIterRepr::Shaped { values, .. } => values.len(),
        };
        (len, Some(len))
    }
}

impl DoubleEndedIterator for IntoIter {
    fn next_back(&mut self) -> Option<Self::Item> {
        match &mut self.inner {
            IntoIterRepr::Entries(entries) => {
                entries.next_back().map(|e| (String::from(e.key), e.value))
            }
            IntoIterRepr::Shaped {
                shape,
                keys,
                values,
            } => Some((
                IntoIterRepr::shaped_key(shape, keys.next_back())?,
                values.next_back()?,
            )),
        }
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

    /// A map of `entries`, whose keys must be distinct.
    fn from_distinct(entries: Vec<Entry>) -> Map {
        let repr = if entries.len() > INDEX_ABOVE {
            let index = KeyIndex::build(entries.iter().map(Entry::key));
            Repr::Indexed(Box::new(Indexed { entries, index }))
        } else {
            Repr::Small(entries)
        };
        Map { repr }
    }

    /// A map of `members`, whose keys must be distinct, with `index`, when
    /// given, of the keys.
    pub(crate) fn from_parts(
        members: impl ExactSizeIterator<Item = (Key, Value)>,
        index: Option<KeyIndex>,
    ) -> Map {
        let mut entries = Vec::with_capacity(members.len());
        entries.extend(members.map(|(key, value)| Entry { key, value }));
        match index {
            Some(index) => Map {
                repr: Repr::Indexed(Box::new(Indexed { entries, index })),
            },
            None => Map::from_distinct(entries),
        }
    }

    /// A map of `shape`'s keys with `values`, one per key.
    /// The shared key list of a parsed map, when it has one.
    #[cfg(test)]
    pub(crate) fn shape(&self) -> Option<&Arc<Shape>> {
        match &self.repr {
            Repr::Shaped(shape, _) => Some(shape),
            _ => None,
        }
    }

    pub(crate) fn shaped(shape: Arc<Shape>, values: Box<[Value]>) -> Map {
        debug_assert_eq!(shape.keys().len(), values.len());
        Map {
            repr: Repr::Shaped(shape, values),
        }
    }

    /// The position of `key`.
    #[inline]
    fn find(&self, key: &str) -> Option<usize> {
        match &self.repr {
            Repr::Small(entries) => entries.iter().position(|e| e.key() == key),
            Repr::Indexed(indexed) => {
                let hash = indexed.index.hash(key);
                indexed.index.find(hash, |at| {
                    indexed.entries.get(at).is_some_and(|e| e.key() == key)
                })
            }
            Repr::Shaped(shape, _) => shape.find(key),
        }
    }

    /// The value at position `at`, mutably.
    fn value_mut(&mut self, at: usize) -> Option<&mut Value> {
        match &mut self.repr {
            Repr::Small(entries) => entries.get_mut(at).map(|e| &mut e.value),
            Repr::Indexed(indexed) => indexed.entries.get_mut(at).map(|e| &mut e.value),
            Repr::Shaped(_, values) => values.get_mut(at),
        }
    }

    /// The entries, to change keys: a shaped map first gets its own copy
    /// of its shape's keys.
    fn owned(&mut self) -> Owned<'_> {
        if let Repr::Shaped(shape, values) = &mut self.repr {
            let values = std::mem::take(values);
            let entries = shape
                .keys()
                .iter()
                .zip(values)
                .map(|(key, value)| Entry {
                    key: key.clone(),
                    value,
                })
                .collect();
            *self = Map::from_distinct(entries);
        }
        match &mut self.repr {
            Repr::Small(entries) => Owned::Small(entries),
            Repr::Indexed(indexed) => Owned::Indexed(indexed),
            Repr::Shaped(..) => unreachable!("a shaped map was just given its own keys"),
        }
    }

    fn insert_key(&mut self, key: Key, value: Value) -> Option<Value> {
        if let Repr::Indexed(indexed) = &mut self.repr {
            // One hash for the search and the insertion.
            let hash = indexed.index.hash(&key);
            let entries = &mut indexed.entries;
            if let Some(at) = indexed
                .index
                .find(hash, |at| entries.get(at).is_some_and(|e| *e.key == *key))
            {
                return Some(std::mem::replace(&mut entries[at].value, value));
            }
            indexed.index.push(hash, entries.len());
            entries.push(Entry { key, value });
            return None;
        }
        if let Some(slot) = self.find(&key).and_then(|at| self.value_mut(at)) {
            return Some(std::mem::replace(slot, value));
        }
        match self.owned() {
            Owned::Small(entries) => {
                entries.push(Entry { key, value });
                if entries.len() > INDEX_ABOVE {
                    let entries = std::mem::take(entries);
                    *self = Map::from_distinct(entries);
                }
            }
            Owned::Indexed(indexed) => {
                let hash = indexed.index.hash(&key);
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
        self.find(key)
            .and_then(|at| self.get_index(at))
            .map(|(_, v)| v)
    }

    /// The value of `key`, mutably.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.find(key).and_then(|at| self.value_mut(at))
    }

    /// Whether `key` is a member.
    pub fn contains_key(&self, key: &str) -> bool {
        self.find(key).is_some()
    }

    /// Removes `key`, keeping the order of the others (O(n)).
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        let at = self.find(key)?;
        let removed = match self.owned() {
            Owned::Small(entries) => entries.remove(at),
            Owned::Indexed(indexed) => {
                let hash = indexed.index.hash(key);
                indexed.index.remove(hash, at);
                indexed.entries.remove(at)
            }
        };
        Some(removed.value)
    }

    /// The position of `key` in the map.
    pub fn index_of(&self, key: &str) -> Option<usize> {
        self.find(key)
    }

    /// The member at position `index`.
    #[inline]
    pub fn get_index(&self, index: usize) -> Option<(&str, &Value)> {
        match &self.repr {
            Repr::Small(entries) => entries.get(index).map(|e| (e.key(), &e.value)),
            Repr::Indexed(indexed) => indexed.entries.get(index).map(|e| (e.key(), &e.value)),
            Repr::Shaped(shape, values) => Some((shape.keys().get(index)?, values.get(index)?)),
        }
    }

    /// The number of members.
    pub fn len(&self) -> usize {
        match &self.repr {
            Repr::Small(entries) => entries.len(),
            Repr::Indexed(indexed) => indexed.entries.len(),
            Repr::Shaped(_, values) => values.len(),
        }
    }

    /// Whether the map has no members.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The members, in order.
    pub fn iter(&self) -> Iter<'_> {
        let inner = match &self.repr {
            Repr::Small(entries) => IterRepr::Entries(entries.iter()),
            Repr::Indexed(indexed) => IterRepr::Entries(indexed.entries.iter()),
            Repr::Shaped(shape, values) => IterRepr::Shaped(shape.keys().iter(), values.iter()),
        };
        Iter { inner }
    }

    /// The keys, in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &str> + ExactSizeIterator {
        self.iter().map(|(k, _)| k)
    }

    /// The values, in order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &Value> + ExactSizeIterator {
        self.iter().map(|(_, v)| v)
    }

    /// Sorts the members by key (byte order of the UTF-8 text), the order
    /// `serde_json` gives a map without `preserve_order`.
    pub fn sort_keys(&mut self) {
        match self.owned() {
            Owned::Small(entries) => entries.sort_unstable_by(|a, b| a.key().cmp(b.key())),
            Owned::Indexed(indexed) => {
                indexed
                    .entries
                    .sort_unstable_by(|a, b| a.key().cmp(b.key()));
                indexed.index = KeyIndex::build(indexed.entries.iter().map(Entry::key));
            }
        }
    }
}

impl PartialEq for Map {
    /// Equal when both have the same members, in any order (as
    /// `IndexMap`'s equality, which this type had before).
    fn eq(&self, other: &Map) -> bool {
        if self.len() != other.len() {
            return false;
        }
        // Usually the same order: compare pairwise up to the first key that
        // differs, then look each remaining key up.
        let mut ours = self.iter();
        let mut theirs = other.iter();
        loop {
            let (Some((key, value)), Some((their_key, their_value))) = (ours.next(), theirs.next())
            else {
                return true;
            };
            if key != their_key {
                return other.get(key) == Some(value)
                    && ours.all(|(key, value)| other.get(key) == Some(value));
            }
            if value != their_value {
                return false;
            }
        }
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
        let inner = match self.repr {
            Repr::Small(entries) => IntoIterRepr::Entries(entries.into_iter()),
            Repr::Indexed(indexed) => IntoIterRepr::Entries(indexed.entries.into_iter()),
            Repr::Shaped(shape, values) => IntoIterRepr::Shaped {
                keys: 0..values.len(),
                shape,
                values: values.into_vec().into_iter(),
            },
        };
        IntoIter { inner }
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
        for len in [
            0,
            1,
            INDEX_ABOVE - 1,
            INDEX_ABOVE,
            INDEX_ABOVE + 1,
            3 * INDEX_ABOVE,
        ] {
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
            assert_eq!(
                map.insert(first.clone(), Value::from("new")),
                Some(model[0].1.clone())
            );
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
