//! [`Map`]: an object's members in insertion order.

use std::borrow::Borrow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::{Deref, Index};

use indexmap::IndexMap;

use crate::Value;

/// A member's key. Struct field names are `&'static str`: keeping them
/// borrowed saves an allocation per field of every serialized struct
/// (measured: about a fifth of `to_value`'s time on flat records).
#[derive(Clone)]
enum Key {
    Static(&'static str),
    Owned(Box<str>),
}

impl Deref for Key {
    type Target = str;

    #[inline]
    fn deref(&self) -> &str {
        match self {
            Key::Static(s) => s,
            Key::Owned(s) => s,
        }
    }
}

impl Borrow<str> for Key {
    #[inline]
    fn borrow(&self) -> &str {
        self
    }
}

// Hash and equality are the text's, as `Borrow<str>` requires.
impl Hash for Key {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        (**self).hash(state);
    }
}

impl PartialEq for Key {
    #[inline]
    fn eq(&self, other: &Key) -> bool {
        **self == **other
    }
}

impl Eq for Key {}

impl From<String> for Key {
    fn from(s: String) -> Key {
        Key::Owned(s.into_boxed_str())
    }
}

impl From<Key> for String {
    fn from(key: Key) -> String {
        match key {
            Key::Static(s) => s.to_owned(),
            Key::Owned(s) => s.into_string(),
        }
    }
}

/// The members of a JSON object, in insertion order.
///
/// Order is part of the data here: a parsed object keeps its source key
/// order, a struct keeps its declaration order, and every codec writes
/// members in this order. The representation (an [`IndexMap`]) is private.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Map {
    entries: IndexMap<Key, Value>,
}

/// An iterator over a [`Map`]'s members, in order.
#[derive(Clone, Debug)]
pub struct Iter<'a> {
    inner: indexmap::map::Iter<'a, Key, Value>,
}

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a str, &'a Value);

    #[inline]
    fn next(&mut self) -> Option<(&'a str, &'a Value)> {
        self.inner.next().map(|(k, v)| (&**k, v))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.inner.next_back().map(|(k, v)| (&**k, v))
    }
}

impl ExactSizeIterator for Iter<'_> {}

/// An iterator over a [`Map`]'s members, by value, in order.
#[derive(Debug)]
pub struct IntoIter {
    inner: indexmap::map::IntoIter<Key, Value>,
}

impl Iterator for IntoIter {
    type Item = (String, Value);

    fn next(&mut self) -> Option<(String, Value)> {
        self.inner.next().map(|(k, v)| (String::from(k), v))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl DoubleEndedIterator for IntoIter {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.inner.next_back().map(|(k, v)| (String::from(k), v))
    }
}

impl ExactSizeIterator for IntoIter {}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl Map {
    /// An empty map.
    pub fn new() -> Map {
        Map::default()
    }

    /// An empty map with room for `capacity` members.
    pub fn with_capacity(capacity: usize) -> Map {
        Map {
            entries: IndexMap::with_capacity(capacity),
        }
    }

    /// Inserts a member. A new key goes last; an existing key keeps its
    /// place and its old value is returned.
    pub fn insert(&mut self, key: impl Into<String>, value: Value) -> Option<Value> {
        self.entries.insert(Key::from(key.into()), value)
    }

    /// [`Map::insert`] for a key known at compile time (a struct field's
    /// name): the key is kept by reference, not copied.
    pub fn insert_static(&mut self, key: &'static str, value: Value) -> Option<Value> {
        self.entries.insert(Key::Static(key), value)
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.entries.get(key)
    }

    /// The value of `key`, mutably.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.entries.get_mut(key)
    }

    /// Whether `key` is a member.
    pub fn contains_key(&self, key: &str) -> bool {
        self.entries.contains_key(key)
    }

    /// Removes `key`, keeping the order of the others (O(n)).
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        self.entries.shift_remove(key)
    }

    /// The position of `key` in the map.
    pub fn index_of(&self, key: &str) -> Option<usize> {
        self.entries.get_index_of(key)
    }

    /// The member at position `index`.
    pub fn get_index(&self, index: usize) -> Option<(&str, &Value)> {
        self.entries.get_index(index).map(|(k, v)| (&**k, v))
    }

    /// The number of members.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the map has no members.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The members, in order.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            inner: self.entries.iter(),
        }
    }

    /// The keys, in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &str> + ExactSizeIterator {
        self.entries.keys().map(|k| &**k)
    }

    /// The values, in order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &Value> + ExactSizeIterator {
        self.entries.values()
    }

    /// Sorts the members by key (byte order of the UTF-8 text), the order
    /// `serde_json` gives a map without `preserve_order`.
    pub fn sort_keys(&mut self) {
        self.entries.sort_unstable_by(|a, _, b, _| (**a).cmp(&**b));
    }
}

impl fmt::Debug for Map {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.entries.iter()).finish()
    }
}

impl Index<&str> for Map {
    type Output = Value;

    /// The value of `key`, or [`Value::Null`] when there is none (as
    /// `serde_json::Value` indexes).
    fn index(&self, key: &str) -> &Value {
        static NULL: Value = Value::Null;
        self.entries.get(key).unwrap_or(&NULL)
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
        IntoIter {
            inner: self.entries.into_iter(),
        }
    }
}

impl<K: Into<String>> FromIterator<(K, Value)> for Map {
    fn from_iter<I: IntoIterator<Item = (K, Value)>>(iter: I) -> Map {
        Map {
            entries: iter
                .into_iter()
                .map(|(k, v)| (Key::from(k.into()), v))
                .collect(),
        }
    }
}

impl<K: Into<String>> Extend<(K, Value)> for Map {
    fn extend<I: IntoIterator<Item = (K, Value)>>(&mut self, iter: I) {
        self.entries
            .extend(iter.into_iter().map(|(k, v)| (Key::from(k.into()), v)));
    }
}
