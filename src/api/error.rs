//! The one error type of the api layer and its JSON form.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// Everything that can go wrong with a request. Each variant's doc names
/// its status; every one answers `{"error": {"code", "message", "field"}}`.
#[derive(Debug)]
pub enum ApiError {
    /// 400: the body is not valid JSON.
    MalformedJson(String),
    /// 413: the body is over the configured limit.
    PayloadTooLarge {
        /// The limit, in bytes.
        limit: usize,
    },
    /// 415: the body is not declared as JSON.
    UnsupportedMediaType(Option<String>),
    /// 422: well-formed JSON that does not make a valid request. `code` is
    /// one of the codes listed in openapi.yaml.
    Invalid {
        /// The error code.
        code: &'static str,
        /// What is wrong, for a person.
        message: String,
        /// The request field or tree path at fault, if any.
        field: Option<String>,
    },
    /// 408: the body did not arrive within the configured time.
    BodyTimeout {
        /// The time it had, in milliseconds.
        limit_ms: u64,
    },
    /// 404: no such route.
    NotFound(String),
    /// 405: the route exists, but not for this method (named here).
    MethodNotAllowed(String),
    /// 429: this client is over one of its per-client limits
    /// (`CLIENT_MAX_SEARCHES`, `CLIENT_SEARCH_MS`); `Retry-After` says when
    /// to try again.
    TooManyRequests {
        /// The limit it is over.
        limit: ClientLimit,
        /// That limit's setting: searches, or milliseconds per window.
        limit_value: u64,
        /// `CLIENT_WINDOW_MS`.
        window_ms: u64,
        /// Seconds until the client may try again.
        retry_after_s: u64,
    },
    /// 503: every search slot is busy and the queue is full.
    Overloaded,
    /// 503: the request took longer than the configured timeout.
    Timeout {
        /// The configured timeout, in milliseconds.
        limit_ms: u64,
    },
    /// 500: a bug. The detail goes to the log, never to the client.
    Internal(String),
}

impl ApiError {
    /// A 422 error.
    pub fn invalid(code: &'static str, field: impl Into<Option<String>>, message: impl Into<String>) -> Self {
        ApiError::Invalid { code, message: message.into(), field: field.into() }
    }

    /// The HTTP status.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::MalformedJson(_) => StatusCode::BAD_REQUEST,
            ApiError::PayloadTooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::Invalid { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::BodyTimeout { .. } => StatusCode::REQUEST_TIMEOUT,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Overloaded | ApiError::Timeout { .. } => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::MalformedJson(_) => "malformed_json",
            ApiError::PayloadTooLarge { .. } => "payload_too_large",
            ApiError::UnsupportedMediaType(_) => "unsupported_media_type",
            ApiError::Invalid { code, .. } => code,
            ApiError::BodyTimeout { .. } => "body_timeout",
            ApiError::NotFound(_) => "not_found",
            ApiError::MethodNotAllowed(_) => "method_not_allowed",
            ApiError::TooManyRequests { limit: ClientLimit::Searches, .. } => "too_many_searches",
            ApiError::TooManyRequests { limit: ClientLimit::SearchTime, .. } => "search_time_exceeded",
            ApiError::Overloaded => "overloaded",
            ApiError::Timeout { .. } => "timeout",
            ApiError::Internal(_) => "internal",
        }
    }

    fn message(&self) -> String {
        match self {
            ApiError::MalformedJson(detail) => format!("the body is not valid JSON: {detail}"),
            ApiError::PayloadTooLarge { limit } => {
                format!("the body is larger than {limit} bytes, the most this service accepts")
            }
            ApiError::UnsupportedMediaType(Some(found)) => {
                format!("the body must be JSON, sent with Content-Type: application/json (found {found:?})")
            }
            ApiError::UnsupportedMediaType(None) => {
                "the body must be JSON, sent with Content-Type: application/json (no Content-Type was given)".into()
            }
            ApiError::Invalid { message, .. } => message.clone(),
            ApiError::BodyTimeout { limit_ms } => {
                format!("the request body did not arrive within {limit_ms} ms")
            }
            ApiError::NotFound(path) => {
                format!("no route {path:?}: POST /best-move finds a move; GET /openapi.yaml describes the API")
            }
            ApiError::MethodNotAllowed(method) => {
                format!("this route does not answer {method}: the Allow header lists the methods it does")
            }
            ApiError::TooManyRequests { limit: ClientLimit::Searches, limit_value, .. } => format!(
                "this client already has as many searches in flight as allowed ({limit_value}): retry when one has ended"
            ),
            ApiError::TooManyRequests { limit: ClientLimit::SearchTime, limit_value, window_ms, retry_after_s } => {
                format!(
                    "this client has used its {limit_value} ms of search time per {window_ms} ms: retry in {retry_after_s} s"
                )
            }
            ApiError::Overloaded => "every search slot is busy and the queue is full: retry in a moment".into(),
            ApiError::Timeout { limit_ms } => format!("the request took longer than {limit_ms} ms and was abandoned"),
            ApiError::Internal(_) => "an internal error occurred; it has been logged".into(),
        }
    }

    fn field(&self) -> Option<&str> {
        match self {
            ApiError::Invalid { field, .. } => field.as_deref(),
            _ => None,
        }
    }
}

#[derive(Serialize)]
struct Envelope<'a> {
    error: Body<'a>,
}

#[derive(Serialize)]
struct Body<'a> {
    code: &'a str,
    message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    field: Option<&'a str>,
}

impl ApiError {
    /// The JSON body this error answers with.
    pub fn body(&self) -> serde_json::Value {
        let body = Envelope { error: Body { code: self.code(), message: self.message(), field: self.field() } };
        serde_json::to_value(body).unwrap_or_default()
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let ApiError::Internal(detail) = &self {
            tracing::error!(%detail, "internal error");
        }
        let status = self.status();
        let body = Envelope { error: Body { code: self.code(), message: self.message(), field: self.field() } };
        let mut response = (status, axum::Json(body)).into_response();
        if status == StatusCode::SERVICE_UNAVAILABLE {
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        }
        if let ApiError::TooManyRequests { retry_after_s, .. } = &self {
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(*retry_after_s));
        }
        if status == StatusCode::REQUEST_TIMEOUT {
            // The rest of the body may still be on its way: this connection
            // cannot carry another request.
            response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
        }
        response
    }
}

/// Which per-client limit a request ran into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClientLimit {
    /// `CLIENT_MAX_SEARCHES`: searches in flight at once.
    Searches,
    /// `CLIENT_SEARCH_MS` per `CLIENT_WINDOW_MS`: search time.
    SearchTime,
}

impl ClientLimit {
    /// The label of the refusal counter and the error code's stem.
    pub fn as_str(self) -> &'static str {
        match self {
            ClientLimit::Searches => "searches",
            ClientLimit::SearchTime => "search_time",
        }
    }
}

impl From<crate::suggest::InputError> for ApiError {
    /// A body that is not JSON is a 400; a request that is not valid, a
    /// 422 with its code, field and message.
    fn from(error: crate::suggest::InputError) -> ApiError {
        match error {
            crate::suggest::InputError::Malformed(message) => ApiError::MalformedJson(message),
            crate::suggest::InputError::Invalid { code, field, message } => ApiError::Invalid { code, message, field },
        }
    }
}
