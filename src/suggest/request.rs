//! A request body read once, at the boundary, into a [`Request`]: the
//! options every game shares, validated here, and the position, which
//! the game the request names reads from its own fields (see
//! [`Catalog`]). Nothing invalid gets past it.

use std::fmt;

use serde::de::{self, Deserialize, DeserializeOwned, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::Value;

use super::bounded::{self, BoundedKey, Bounds, ReadError};
use super::served::{Catalog, ServedPosition};
use super::shorten;
use crate::search::TieBreak;

/// The keys a request may have.
pub const FIELDS: [&str; 16] = [
    "board",
    "tree",
    "to_move",
    "maximizing",
    "max_depth",
    "tie_break",
    "seed",
    "mistake",
    "max_moves",
    "game",
    "moves",
    "time_ms",
    "compare",
    "level",
    "size",
    "rule",
];

/// Moves an answer lists unless the request says otherwise.
pub const DEFAULT_MAX_MOVES: usize = 1_000;

/// The most `time_ms` a request may ask for: an hour.
const MAX_TIME_MS: u64 = 3_600_000;

/// Why a request cannot be answered: its body is not JSON at all, or it is
/// JSON that does not make a valid request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputError {
    /// The body is not JSON (or not UTF-8 text).
    Malformed(String),
    /// Well-formed JSON that is not a valid request: an error `code` of the
    /// contract, the field (or path) at fault if any, and what is wrong.
    Invalid {
        /// The error code.
        code: &'static str,
        /// The request field or path at fault, if any.
        field: Option<String>,
        /// What is wrong, for a person.
        message: String,
    },
}

impl InputError {
    /// An invalid request.
    pub fn invalid(code: &'static str, field: impl Into<Option<String>>, message: impl Into<String>) -> InputError {
        InputError::Invalid { code, field: field.into(), message: message.into() }
    }
}

/// A request's fields, as raw JSON, by name: what a game reads its
/// position from. An explicit `null` reads as absent.
pub struct Fields<'a> {
    raw: [Option<&'a RawValue>; FIELDS.len()],
}

impl<'a> Fields<'a> {
    /// Reads a request body (already known to be declared as JSON) into
    /// its fields, refusing a body that is not a JSON object, a key given
    /// twice, and a key not among `allowed` (some of [`FIELDS`]).
    pub fn parse(body: &'a [u8], allowed: &[&str]) -> Result<Fields<'a>, InputError> {
        let text = std::str::from_utf8(body)
            .map_err(|e| InputError::Malformed(format!("the body is not UTF-8 text ({e})")))?;
        // Values are kept as raw text: a deeply nested tree is skipped here
        // without recursion and read by the tree's own iterative parser.
        let members: Members<'_> = serde_json::from_str(text).map_err(|e| match e.classify() {
            // Not an object, but is it JSON at all? (Skipping a value is
            // iterative in serde_json, so any depth is safe here.)
            serde_json::error::Category::Data => match serde_json::from_str::<de::IgnoredAny>(text) {
                Ok(_) => InputError::invalid(
                    "invalid_request",
                    None,
                    "the body must be a JSON object, such as {\"board\": \".........\"}",
                ),
                Err(syntax) => InputError::Malformed(syntax.to_string()),
            },
            _ => InputError::Malformed(e.to_string()),
        })?;

        let mut raw: [Option<&RawValue>; FIELDS.len()] = [None; FIELDS.len()];
        let mut seen = [false; FIELDS.len()];
        for (key, value) in &members.0 {
            let Some(slot) = FIELDS.iter().position(|f| f == key).filter(|_| allowed.contains(&key.as_str())) else {
                return Err(unknown_field(key, allowed));
            };
            if std::mem::replace(&mut seen[slot], true) {
                return Err(InputError::invalid(
                    "invalid_request",
                    key.to_string(),
                    format!("{key:?} appears more than once"),
                ));
            }
            // An explicit null means the same as leaving the key out.
            if value.get() != "null" {
                raw[slot] = Some(value);
            }
        }
        Ok(Fields { raw })
    }

    /// The field `name` (one of [`FIELDS`]), if the request gave it.
    pub fn get(&self, name: &str) -> Option<&'a RawValue> {
        FIELDS.iter().position(|f| *f == name).and_then(|slot| self.raw[slot])
    }
}

/// The options every game shares, validated.
#[derive(Debug, Clone)]
pub struct Options {
    /// Plies to look ahead; `None` for the whole game (or the budget).
    pub max_depth: Option<u32>,
    /// How to choose among equally good moves.
    pub tie_break: TieBreak,
    /// Seed for every random choice (given, or drawn for this request).
    pub seed: u64,
    /// Probability of answering a random legal move.
    pub mistake: f64,
    /// The difficulty level asked for (1 to 10), if any: it set `max_depth`
    /// and `temperature` (see [`super::Style`]).
    pub level: Option<u8>,
    /// With a level, the softmax temperature of the move's choice
    /// ([`crate::search::choose_softly`]); `None` without one.
    pub temperature: Option<f64>,
    /// The time the caller allows the search, in milliseconds, if given.
    pub time_ms: Option<u64>,
    /// Most moves the answer lists.
    pub max_moves: usize,
    /// Whether to run the searches that are only there to compare (see
    /// `Context::compare`); `None` leaves it to the server's setting.
    pub compare: Option<bool>,
}

impl Options {
    /// Reads the options every game shares from a request's `fields`;
    /// `max_moves_limit` is the most `max_moves` may ask for. A level's
    /// style is applied once the game is known.
    fn read(fields: &Fields<'_>, max_moves_limit: usize) -> Result<Options, InputError> {
        let level = option::<u64>(fields.get("level"), "level", "an integer from 1 to 10")?
            .map(|level| match level {
                1..=10 => Ok(level as u8),
                _ => Err(InputError::invalid(
                    "invalid_option",
                    "level".to_string(),
                    format!("level must be an integer from 1 (weakest) to 10 (full strength), not {level}"),
                )),
            })
            .transpose()?;
        if level.is_some() {
            if let Some(other) = ["max_depth", "mistake"].iter().find(|name| fields.get(name).is_some()) {
                return Err(InputError::invalid(
                    "invalid_option",
                    "level".to_string(),
                    format!("level sets how far the search looks and how it chooses its move: send it without {other}"),
                ));
            }
        }

        let max_depth = option::<u64>(fields.get("max_depth"), "max_depth", "an integer of at least 1")?
            .map(|d| match u32::try_from(d) {
                Ok(d) if d >= 1 => Ok(d),
                _ => Err(InputError::invalid(
                    "invalid_option",
                    "max_depth".to_string(),
                    format!("max_depth must be an integer from 1 to {}, not {d}", u32::MAX),
                )),
            })
            .transpose()?;
        let tie_break =
            match option::<String>(fields.get("tie_break"), "tie_break", "\"first\" or \"random\"")?.as_deref() {
                None | Some("first") => TieBreak::First,
                Some("random") => TieBreak::Random,
                Some(other) => {
                    return Err(InputError::invalid(
                        "invalid_option",
                        "tie_break".to_string(),
                        format!("tie_break must be \"first\" or \"random\", not {other:?}"),
                    ))
                }
            };
        let seed = option::<u64>(fields.get("seed"), "seed", "an integer from 0 to 18446744073709551615")?
            // Drawn below 2^53, so a JavaScript client can send it back exactly.
            .unwrap_or_else(|| fastrand::u64(..1 << 53));
        let mistake = option::<f64>(fields.get("mistake"), "mistake", "a number from 0 to 1")?.unwrap_or(0.0);
        if !(0.0..=1.0).contains(&mistake) {
            return Err(InputError::invalid(
                "invalid_option",
                "mistake".to_string(),
                format!("mistake is a probability: a number from 0 to 1, not {mistake}"),
            ));
        }
        let max_moves =
            option::<u64>(fields.get("max_moves"), "max_moves", &format!("an integer from 0 to {max_moves_limit}"))?
                .map(|n| match usize::try_from(n) {
                    Ok(n) if n <= max_moves_limit => Ok(n),
                    _ => Err(InputError::invalid(
                        "invalid_option",
                        "max_moves".to_string(),
                        format!(
                            "max_moves must be an integer from 0 to {max_moves_limit}, this service's most, not {n}"
                        ),
                    )),
                })
                .transpose()?
                .unwrap_or(DEFAULT_MAX_MOVES.min(max_moves_limit));

        let time_ms =
            option::<u64>(fields.get("time_ms"), "time_ms", "an integer number of milliseconds from 1 to 3600000")?
                .map(|ms| match ms {
                    1..=MAX_TIME_MS => Ok(ms),
                    _ => Err(InputError::invalid(
                        "invalid_option",
                        "time_ms".to_string(),
                        format!("time_ms must be an integer number of milliseconds from 1 to {MAX_TIME_MS}, not {ms}"),
                    )),
                })
                .transpose()?;
        let compare = option::<bool>(fields.get("compare"), "compare", "true or false")?;
        Ok(Options { max_depth, tie_break, seed, mistake, level, temperature: None, time_ms, max_moves, compare })
    }
}

/// A validated request: the position, and the options.
pub struct Request {
    /// The position, read by its game.
    pub position: Box<dyn ServedPosition>,
    /// The options every game shares, a level's style applied.
    pub options: Options,
}

impl fmt::Debug for Request {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Request").field("position", &self.position).field("options", &self.options).finish()
    }
}

impl Request {
    /// Reads a request body (already known to be declared as JSON): the
    /// options here, the position by the game of `games` the request
    /// names. `max_moves_limit` is the most `max_moves` may ask for.
    pub fn parse(body: &[u8], games: &dyn Catalog, max_moves_limit: usize) -> Result<Request, InputError> {
        let fields = Fields::parse(body, &FIELDS)?;
        let mut options = Options::read(&fields, max_moves_limit)?;
        let game = option::<String>(fields.get("game"), "game", &games.expected())?;
        let position = games.read(game.as_deref(), &fields, &options)?;
        // A level sets the depth and the choice's temperature of its game.
        if let Some(style) = options.level.map(|level| position.style(level)) {
            options.max_depth = style.max_depth;
            options.temperature = Some(style.temperature);
        }
        Ok(Request { position, options })
    }

    /// An upper bound on the positions plain minimax will visit, to decide
    /// whether the search is cheap enough to run inline.
    pub fn work_estimate(&self) -> u64 {
        self.position.work_estimate()
    }
}

/// The most a position's JSON may hold: more than any game's board or move
/// list (an Othello game has at most 60 moves and, written out, a pass
/// between any two of them: 119 items; its string, 60 names with
/// separators of a few characters), and little enough that reading it
/// costs a few hundred KiB at most (see [`bounded`]).
const POSITION_BOUNDS: Bounds = Bounds { items: 128, text_bytes: 1024, values: 512 };

/// Reads the JSON of a position's field within the bounds every position
/// fits; an error has the code `invalid` and names the place at fault and
/// what the field should be (`shape`).
pub fn read_position(raw: &RawValue, field: &str, invalid: &'static str, shape: &str) -> Result<Value, InputError> {
    bounded::read(raw, field, POSITION_BOUNDS).map_err(|error| {
        let (path, message) = match error {
            ReadError::TooLarge { path, what } => {
                let message = format!("{path} is too large to be part of a position ({what}): {shape}");
                (path, message)
            }
            // A bare number where the position should be.
            ReadError::NumberOutOfRange { path } if path == field => {
                (path, format!("{shape}, not a number ({})", shorten(raw.get().trim())))
            }
            ReadError::NumberOutOfRange { path } => (
                path.clone(),
                format!("{path} is a number that cannot be read: it is beyond the range of a double; {shape}"),
            ),
            ReadError::InvalidUnicode { path } => (
                path.clone(),
                format!("{path} holds invalid Unicode: an escape such as \\ud800 is half of a surrogate pair, not a character; {shape}"),
            ),
            // The path would be over a hundred levels long: name the field.
            ReadError::TooDeep { .. } => (field.to_string(), format!("{shape}; this one is nested far too deeply")),
            ReadError::Other(detail) => (field.to_string(), format!("{field} cannot be read ({detail}): {shape}")),
        };
        InputError::invalid(invalid, path, message)
    })
}

/// Reads an option, naming it and what it should be when it is wrong.
///
/// No option's value is longer than a few dozen bytes: a longer one is
/// refused unread, so a huge string costs no copy.
pub fn option<T: DeserializeOwned>(
    raw: Option<&RawValue>,
    field: &str,
    expected: &str,
) -> Result<Option<T>, InputError> {
    const LONGEST: usize = 1024;
    raw.map(|raw| {
        let text = raw.get();
        let parsed = if text.len() > LONGEST { None } else { serde_json::from_str(text).ok() };
        parsed.ok_or_else(|| {
            InputError::invalid(
                "invalid_option",
                field.to_string(),
                format!("{field} must be {expected}, not {}", shorten(raw.get())),
            )
        })
    })
    .transpose()
}

fn unknown_field(key: &str, allowed: &[&str]) -> InputError {
    let suggestion = allowed
        .iter()
        .map(|f| (edit_distance(key, f), f))
        .filter(|(d, _)| *d <= 2)
        .min()
        .map(|(_, f)| format!(" (did you mean {f:?}?)"))
        .unwrap_or_default();
    InputError::invalid(
        "unknown_field",
        shorten(key),
        format!("unknown field {:?}{suggestion}; the fields are {}", shorten(key), allowed.join(", ")),
    )
}

/// Levenshtein distance, for "did you mean" hints on short keys.
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().take(64).collect(), b.chars().collect());
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous + usize::from(ca != cb);
            previous = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(previous + 1);
        }
    }
    row[b.len()]
}

/// A JSON object's members in order, duplicates kept, values unparsed.
///
/// Only the first `FIELDS.len() + 1` members are kept: among them is either
/// every member, or a key that is unknown or given twice, which is refused.
/// The rest are skipped, so a body of a million members costs nothing.
struct Members<'a>(Vec<(String, &'a RawValue)>);

impl<'de> Deserialize<'de> for Members<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct MembersVisitor;
        impl<'de> Visitor<'de> for MembersVisitor {
            type Value = Members<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Members<'de>, A::Error> {
                let mut members = Vec::new();
                while let Some(BoundedKey(key)) = map.next_key()? {
                    if members.len() > FIELDS.len() {
                        map.next_value::<de::IgnoredAny>()?;
                        continue;
                    }
                    members.push((key, map.next_value::<&'de RawValue>()?));
                }
                Ok(Members(members))
            }
        }
        deserializer.deserialize_map(MembersVisitor)
    }
}
