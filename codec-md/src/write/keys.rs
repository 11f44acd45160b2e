//! [`KeyTable`]: what the writer remembers of a key, by the key's
//! address.

/// Slots of a [`KeyTable`] (a power of two), and the most keys it holds:
/// at most half full, a key is found in a probe or two.
const SLOTS: usize = 128;
const MOST: usize = SLOTS / 2;

/// A value per key, found by the key's address and length: a struct's
/// field names, or a parsed object's shared key list, keep one address on
/// every row, so what is worked out for a key once serves every row.
///
/// A hash table (linear probing, a multiplicative hash) of the first
/// [`MOST`] keys, not a slot per address: addresses move with every build
/// of the program, and with a slot per address some builds put two of a
/// record's keys in one, which then missed on every row. Codec-core's
/// tape keeps its field names the same way.
#[derive(Debug)]
pub(super) struct KeyTable<V> {
    /// (address, length, value); (0, 0, _) for an empty slot.
    slots: [(usize, usize, V); SLOTS],
    known: usize,
}

impl<V: Copy + Default> Default for KeyTable<V> {
    fn default() -> KeyTable<V> {
        KeyTable {
            slots: [(0, 0, V::default()); SLOTS],
            known: 0,
        }
    }
}

impl<V: Copy> KeyTable<V> {
    /// What is remembered for `key`, or else the slot it would take.
    #[inline(always)]
    pub(super) fn find(&self, key: &str) -> Result<V, usize> {
        let (address, len) = (key.as_ptr() as usize, key.len());
        let hash = (address as u64 ^ len as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut slot = (hash >> (64 - SLOTS.trailing_zeros())) as usize;
        loop {
            let (known, known_len, value) = self.slots[slot];
            if (known, known_len) == (address, len) {
                return Ok(value);
            }
            if (known, known_len) == (0, 0) {
                return Err(slot);
            }
            slot = (slot + 1) % SLOTS;
        }
    }

    /// Remembers `value` for `key` in `slot` (from [`KeyTable::find`]),
    /// while the table has room.
    #[inline]
    pub(super) fn remember(&mut self, slot: usize, key: &str, value: V) {
        if self.known < MOST {
            self.slots[slot] = (key.as_ptr() as usize, key.len(), value);
            self.known += 1;
        }
    }
}
