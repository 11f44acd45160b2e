//! [`Map`]: an object's members in insertion order.

use std::fmt;
use std::ops::Index;

use indexmap::IndexMap;

use crate::Value;

/// The members of a JSON object, in insertion order.
///
/// Order is part of the data here: a parsed object keeps its source key
/// order, a struct keeps its declaration order, and every codec writes
/// members in this order. The representation (an [`IndexMap`]) is private.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Map {
    entries: IndexMap<String, Value>,
}

/// An iterator over a [`Map`]'s members, in order.
pub type Iter<'a> = indexmap::map::Iter<'a, String, Value>;

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
        self.entries.insert(key.into(), value)
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
        self.entries.get_index(index).map(|(k, v)| (k.as_str(), v))
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
        self.entries.iter()
    }

    /// The keys, in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &str> + ExactSizeIterator {
        self.entries.keys().map(String::as_str)
    }

    /// The values, in order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &Value> + ExactSizeIterator {
        self.entries.values()
    }

    /// Sorts the members by key (byte order of the UTF-8 text), the order
    /// `serde_json` gives a map without `preserve_order`.
    pub fn sort_keys(&mut self) {
        self.entries.sort_unstable_keys();
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
    type Item = (&'a String, &'a Value);
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.entries.iter()
    }
}

impl IntoIterator for Map {
    type Item = (String, Value);
    type IntoIter = indexmap::map::IntoIter<String, Value>;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl<K: Into<String>> FromIterator<(K, Value)> for Map {
    fn from_iter<I: IntoIterator<Item = (K, Value)>>(iter: I) -> Map {
        Map {
            entries: iter.into_iter().map(|(k, v)| (k.into(), v)).collect(),
        }
    }
}

impl<K: Into<String>> Extend<(K, Value)> for Map {
    fn extend<I: IntoIterator<Item = (K, Value)>>(&mut self, iter: I) {
        self.entries
            .extend(iter.into_iter().map(|(k, v)| (k.into(), v)));
    }
}
