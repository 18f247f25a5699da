//! Admission: a place among the searches running or waiting, then a
//! search slot; a search runs on the blocking pool and stops when its
//! client goes away. One copy, for the plain answer and the stream.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use tokio::sync::OwnedSemaphorePermit;
use tokio::task::JoinHandle;

use super::{ApiError, AppState};

/// A search's cancel flag, set when this guard is dropped: by the handler's
/// future when the client hangs up (or the deadline passes), by a stream's
/// body when the client stops reading it.
pub(super) struct CancelOnDrop(Arc<AtomicBool>);

impl CancelOnDrop {
    pub(super) fn new() -> Self {
        CancelOnDrop(Arc::new(AtomicBool::new(false)))
    }

    /// The flag the search polls.
    pub(super) fn flag(&self) -> Arc<AtomicBool> {
        self.0.clone()
    }
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// A place among the searches running or waiting, then a search slot: at
/// most `search_slots` run at once and `search_queue` more may wait; beyond
/// that the answer is 503 at once.
async fn admit(
    state: &Arc<AppState>,
    deadline: tokio::time::Instant,
) -> Result<(Admission, OwnedSemaphorePermit), ApiError> {
    let capacity = state.config.search_slots() + state.config.search_queue;
    let Some(admission) = Admission::try_new(state.clone(), capacity) else {
        state.metrics.shed.inc();
        return Err(ApiError::Overloaded);
    };
    match tokio::time::timeout_at(deadline, state.slots.clone().acquire_owned()).await {
        Ok(Ok(permit)) => Ok((admission, permit)),
        Ok(Err(closed)) => Err(ApiError::Internal(closed.to_string())),
        Err(_) => Err(ApiError::Timeout { limit_ms: state.config.request_timeout_ms }),
    }
}

/// A place among the searches running or waiting; given back on drop.
pub(super) struct Admission(Arc<AppState>);

impl Admission {
    fn try_new(state: Arc<AppState>, capacity: usize) -> Option<Self> {
        let previous = state.admitted.fetch_add(1, Ordering::AcqRel);
        if previous >= capacity {
            state.admitted.fetch_sub(1, Ordering::AcqRel);
            return None;
        }
        Some(Admission(state))
    }
}

impl Drop for Admission {
    fn drop(&mut self) {
        self.0.admitted.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A search admitted: its place among the searches and its slot, both held
/// until the search really ends.
pub(super) struct Admitted {
    _admission: Admission,
    _permit: OwnedSemaphorePermit,
}

/// A place, then a slot, for a search that must start by `deadline`.
pub(super) async fn admitted(state: &Arc<AppState>, deadline: tokio::time::Instant) -> Result<Admitted, ApiError> {
    let (admission, permit) = admit(state, deadline).await?;
    Ok(Admitted { _admission: admission, _permit: permit })
}

impl Admitted {
    /// Runs `work` on the blocking pool, counted among the searches in
    /// flight, holding the slot until it returns (even if the request was
    /// answered with a timeout meanwhile).
    pub(super) fn spawn<T: Send + 'static>(
        self,
        state: &Arc<AppState>,
        work: impl FnOnce(&AppState) -> T + Send + 'static,
    ) -> JoinHandle<T> {
        let worker = state.clone();
        tokio::task::spawn_blocking(move || {
            let _held = self;
            worker.metrics.searches_in_flight.inc();
            let result = work(&worker);
            worker.metrics.searches_in_flight.dec();
            result
        })
    }
}
