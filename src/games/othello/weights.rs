//! The evaluation's weights file: what the service reads at startup (the
//! embedded weights) and the fitting script writes.
//!
//! Little-endian: the magic `BMOW`, a format version (`u16`,
//! [`WEIGHTS_VERSION`]), the number of stages (`u16`, `STAGES`) and of
//! weights per stage (`u32`, [`features_per_stage`]), then each stage's
//! weights as `i16` in points (100 to a disc): first one per canonical
//! index of each pattern (the patterns in order, the indices ascending),
//! then one per scalar feature.

use super::patterns::{LAYOUT, SCALARS, STAGES};

/// The version of the weights file's format and feature layout.
pub const WEIGHTS_VERSION: u16 = 1;

/// The magic that opens a weights file.
const MAGIC: &[u8; 4] = b"BMOW";
/// Bytes before the weights.
const HEADER: usize = 12;

/// Why a weights file cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WeightsError {
    /// It does not open with the magic, or is shorter than its header.
    NotAWeightsFile,
    /// Another version of the format.
    Version(u16),
    /// Another number of stages or of weights per stage than the layout's.
    Layout {
        /// Stages in the file.
        stages: usize,
        /// Weights per stage in the file.
        features: usize,
    },
    /// Not as many bytes as the header announces.
    Length,
}

impl std::fmt::Display for WeightsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WeightsError::NotAWeightsFile => write!(f, "not an Othello weights file"),
            WeightsError::Version(v) => write!(f, "weights format version {v}, expected {WEIGHTS_VERSION}"),
            WeightsError::Layout { stages, features } => {
                write!(f, "{stages} stages of {features} weights, expected {STAGES} of {}", features_per_stage())
            }
            WeightsError::Length => write!(f, "the weights file is truncated or too long"),
        }
    }
}

impl std::error::Error for WeightsError {}

/// The number of weights of a stage: the canonical indices of every
/// pattern, then the scalar features.
pub fn features_per_stage() -> usize {
    LAYOUT.pattern_features + SCALARS
}

/// A weights file of `stages` (each [`features_per_stage`] weights long).
pub fn encode_weights(stages: &[Vec<i16>]) -> Vec<u8> {
    let per_stage = stages.first().map_or(0, Vec::len);
    let mut bytes = Vec::with_capacity(HEADER + 2 * per_stage * stages.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&WEIGHTS_VERSION.to_le_bytes());
    bytes.extend_from_slice(&(stages.len() as u16).to_le_bytes());
    bytes.extend_from_slice(&(per_stage as u32).to_le_bytes());
    for weight in stages.iter().flatten() {
        bytes.extend_from_slice(&weight.to_le_bytes());
    }
    bytes
}

/// The stages of a weights file, checked against the layout.
pub fn decode_weights(bytes: &[u8]) -> Result<Vec<Vec<i16>>, WeightsError> {
    if bytes.len() < HEADER || &bytes[..4] != MAGIC {
        return Err(WeightsError::NotAWeightsFile);
    }
    let version = u16::from_le_bytes([bytes[4], bytes[5]]);
    if version != WEIGHTS_VERSION {
        return Err(WeightsError::Version(version));
    }
    let stages = usize::from(u16::from_le_bytes([bytes[6], bytes[7]]));
    let features = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize;
    if stages != STAGES || features != features_per_stage() {
        return Err(WeightsError::Layout { stages, features });
    }
    if bytes.len() != HEADER + 2 * stages * features {
        return Err(WeightsError::Length);
    }
    let weights: Vec<i16> = bytes[HEADER..].chunks_exact(2).map(|b| i16::from_le_bytes([b[0], b[1]])).collect();
    Ok(weights.chunks(features).map(<[i16]>::to_vec).collect())
}
