//! Reading a small JSON value (a board, a list of moves) with its size
//! bounded while it is parsed.
//!
//! `serde_json::Value` costs about 32 bytes per array element, so a 16 MiB
//! body of `[0,0,0,...]` would take some 260 MiB before any check on its
//! length could run. [`read`] stops at the first array or object with too
//! many items, the first string too long, or once the value holds too many
//! items in all: what a request can cost is its body plus a small constant.

use std::cell::RefCell;
use std::fmt::{self, Write as _};

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Number, Value};

/// How large a value may be.
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    /// Most items in one array or object.
    pub items: usize,
    /// Most bytes in one string.
    pub text_bytes: usize,
    /// Most values in all, the value itself and everything inside it.
    pub values: usize,
}

/// Why a value could not be read.
#[derive(Debug, PartialEq)]
pub enum ReadError {
    /// An array, object or string past its bound, at `path`.
    TooLarge { path: String, what: TooLarge },
    /// A number beyond the range of a double, such as `1e400`, at `path`.
    NumberOutOfRange { path: String },
    /// A string escape that is not a Unicode scalar value (a lone
    /// surrogate such as `"\ud800"`), at `path`.
    InvalidUnicode { path: String },
    /// Nested past serde_json's limit of 128 levels, at `path`.
    TooDeep { path: String },
    /// Anything else serde_json refused (the body was already checked to be
    /// JSON, so this should not happen).
    Other(String),
}

/// Which bound a value went past.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TooLarge {
    /// An array with more than this many items.
    Items(usize),
    /// An object with more than this many members.
    Members(usize),
    /// A string of more than this many bytes.
    TextBytes(usize),
    /// More than this many values in all.
    Values(usize),
}

impl fmt::Display for TooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TooLarge::Items(n) => write!(f, "an array of more than {n} items"),
            TooLarge::Members(n) => write!(f, "an object of more than {n} members"),
            TooLarge::TextBytes(n) => write!(f, "a string of more than {n} bytes"),
            TooLarge::Values(n) => write!(f, "more than {n} values in all"),
        }
    }
}

/// Reads `raw`, the value of the request field `field`, within `bounds`.
/// Errors name the place at fault as a path from `field` (`moves[3]`).
pub fn read(raw: &RawValue, field: &str, bounds: Bounds) -> Result<Value, ReadError> {
    let state = RefCell::new(State { bounds, values: 0, path: vec![Step::Field(field)], too_large: None });
    let mut deserializer = serde_json::Deserializer::from_str(raw.get());
    let result = Seed(&state).deserialize(&mut deserializer);
    let state = state.into_inner();
    match result {
        Ok(value) => Ok(value),
        Err(error) => {
            let path = state.path_text();
            Err(match state.too_large {
                Some(what) => ReadError::TooLarge { path, what },
                None => classify(&error, path),
            })
        }
    }
}

fn classify(error: &serde_json::Error, path: String) -> ReadError {
    let text = error.to_string();
    if text.starts_with("number out of range") {
        ReadError::NumberOutOfRange { path }
    } else if text.contains("surrogate") || text.contains("unicode code point") || text.contains("hex escape") {
        ReadError::InvalidUnicode { path }
    } else if text.starts_with("recursion limit exceeded") {
        ReadError::TooDeep { path }
    } else {
        ReadError::Other(text)
    }
}

/// One step of the path to the value being read.
enum Step<'f> {
    Field(&'f str),
    Index(usize),
    Key(String),
}

struct State<'f> {
    bounds: Bounds,
    values: usize,
    /// Where the reader is; left as it was when an error stops it.
    path: Vec<Step<'f>>,
    too_large: Option<TooLarge>,
}

impl State<'_> {
    fn path_text(&self) -> String {
        let mut text = String::new();
        for step in &self.path {
            let _ = match step {
                Step::Field(field) => write!(text, "{field}"),
                Step::Index(i) => write!(text, "[{i}]"),
                Step::Key(key) => write!(text, "[{}]", Value::String(super::shorten(key))),
            };
        }
        text
    }

    /// Counts one more value; past the bound, records why and fails.
    fn count<E: de::Error>(&mut self) -> Result<(), E> {
        self.values += 1;
        if self.values > self.bounds.values {
            return self.refuse(TooLarge::Values(self.bounds.values));
        }
        Ok(())
    }

    fn refuse<T, E: de::Error>(&mut self, what: TooLarge) -> Result<T, E> {
        self.too_large = Some(what);
        Err(E::custom(what))
    }
}

/// Builds a [`Value`] and keeps count in the shared state.
struct Seed<'s, 'f>(&'s RefCell<State<'f>>);

impl<'de> DeserializeSeed<'de> for Seed<'_, '_> {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Seed<'_, '_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        self.0.borrow_mut().count()?;
        Ok(Value::Null)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
        self.0.borrow_mut().count()?;
        Ok(Value::Bool(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        self.0.borrow_mut().count()?;
        Ok(Value::Number(v.into()))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
        self.0.borrow_mut().count()?;
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        self.0.borrow_mut().count()?;
        // JSON has no infinities, so every parsed double is finite.
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        let mut state = self.0.borrow_mut();
        state.count()?;
        if v.len() > state.bounds.text_bytes {
            let limit = state.bounds.text_bytes;
            return state.refuse(TooLarge::TextBytes(limit));
        }
        Ok(Value::String(v.to_owned()))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        self.0.borrow_mut().count()?;
        let mut items = Vec::new();
        loop {
            {
                let mut state = self.0.borrow_mut();
                if items.len() == state.bounds.items {
                    // One more item would be too many: is there one?
                    drop(state);
                    if seq.next_element::<de::IgnoredAny>()?.is_some() {
                        let mut state = self.0.borrow_mut();
                        let limit = state.bounds.items;
                        return state.refuse(TooLarge::Items(limit));
                    }
                    break;
                }
                state.path.push(Step::Index(items.len()));
            }
            match seq.next_element_seed(Seed(self.0))? {
                Some(item) => items.push(item),
                None => {
                    self.0.borrow_mut().path.pop();
                    break;
                }
            }
            self.0.borrow_mut().path.pop();
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        self.0.borrow_mut().count()?;
        let mut members = Map::new();
        let mut read = 0;
        while let Some(key) = map.next_key::<BoundedKey>()? {
            let mut state = self.0.borrow_mut();
            if read == state.bounds.items {
                let limit = state.bounds.items;
                return state.refuse(TooLarge::Members(limit));
            }
            state.path.push(Step::Key(key.0.clone()));
            drop(state);
            let value = map.next_value_seed(Seed(self.0))?;
            self.0.borrow_mut().path.pop();
            members.insert(key.0, value);
            read += 1;
        }
        Ok(Value::Object(members))
    }
}

/// An object key, kept to its first 64 characters: keys only ever appear
/// in error messages, shortened.
pub(crate) struct BoundedKey(pub String);

impl<'de> de::Deserialize<'de> for BoundedKey {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = BoundedKey;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<BoundedKey, E> {
                const KEPT: usize = 64;
                let mut key: String = v.chars().take(KEPT).collect();
                if key.len() < v.len() {
                    // Marked, so a shortened key never equals a short one.
                    key.push('…');
                }
                Ok(BoundedKey(key))
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: Bounds = Bounds { items: 4, text_bytes: 8, values: 10 };

    fn read_text(text: &str) -> Result<Value, ReadError> {
        let raw: Box<RawValue> = serde_json::from_str(text).unwrap();
        read(&raw, "moves", SMALL)
    }

    #[test]
    fn values_within_the_bounds_are_read_whole() {
        let value = read_text(r#"[1, -2.5, "abc", {"a": [null, true]}]"#).unwrap();
        assert_eq!(value, serde_json::json!([1, -2.5, "abc", {"a": [null, true]}]));
        assert_eq!(read_text(r#""12345678""#).unwrap(), serde_json::json!("12345678"));
    }

    #[test]
    fn the_first_bound_passed_is_named_with_its_place() {
        let too_large = |path: &str, what| Err(ReadError::TooLarge { path: path.into(), what });
        assert_eq!(read_text(r#"[[1], [1, 2, 3, 4, 5]]"#), too_large("moves[1]", TooLarge::Items(4)));
        assert_eq!(read_text(r#"["ok", "123456789"]"#), too_large("moves[1]", TooLarge::TextBytes(8)));
        assert_eq!(read_text(r#"{"a": 1, "b": 2, "c": 3, "d": 4, "e": 5}"#), too_large("moves", TooLarge::Members(4)));
        assert_eq!(read_text("[[1, 1, 1, 1], [1, 1, 1, 1]]"), too_large("moves[1][3]", TooLarge::Values(10)));
    }

    #[test]
    fn unreadable_numbers_strings_and_nesting_are_told_apart() {
        assert_eq!(read_text("[1, 1e400]"), Err(ReadError::NumberOutOfRange { path: "moves[1]".into() }));
        assert_eq!(read_text(r#"["\ud800"]"#), Err(ReadError::InvalidUnicode { path: "moves[0]".into() }));
        assert_eq!(read_text(r#"{"k": "\udc00x"}"#), Err(ReadError::InvalidUnicode { path: "moves[\"k\"]".into() }));
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let deep_bounds = Bounds { items: 4, text_bytes: 8, values: 1000 };
        // Skipping a value, as RawValue does, is iterative: any depth is read.
        let raw: Box<RawValue> = serde_json::from_str(&deep).unwrap();
        assert!(matches!(read(&raw, "board", deep_bounds), Err(ReadError::TooDeep { .. })));
    }

    #[test]
    fn long_keys_are_kept_short_and_marked() {
        let key: BoundedKey = serde_json::from_str(&format!("{:?}", "k".repeat(1000))).unwrap();
        assert_eq!(key.0, format!("{}…", "k".repeat(64)));
        let key: BoundedKey = serde_json::from_str("\"board\"").unwrap();
        assert_eq!(key.0, "board");
    }
}
