//! The server held to its contract, `openapi.yaml`: real responses, obtained
//! through the router, must match the response the spec documents for their
//! path, method and status (media type, `x-request-id` header, body schema).
//!
//! The whole spec is registered as one JSON Schema resource, and each check
//! validates against a `{"$ref": "<spec>#/pointer/to/a/schema"}` wrapper, so
//! the spec's own `$ref`s (the recursive tree node among them) resolve as
//! they are written.

use std::sync::OnceLock;

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use axum::response::IntoResponse;
use http_body_util::BodyExt;
use jsonschema::{Draft, Registry, Validator};
use serde_json::{json, Value};
use tower::ServiceExt;

use crate::helpers::{self, TestResponse};

/// The URI under which the spec is registered; pointers are resolved against it.
const SPEC_URI: &str = "urn:bestmove:openapi";

/// The spec in the repository, parsed once.
fn spec() -> &'static Value {
    static SPEC: OnceLock<Value> = OnceLock::new();
    SPEC.get_or_init(|| {
        serde_yaml_ng::from_str(include_str!("../../openapi.yaml")).expect("openapi.yaml is valid YAML")
    })
}

/// The spec's text, byte for byte.
fn spec_text() -> &'static str {
    include_str!("../../openapi.yaml")
}

/// Escapes one JSON Pointer segment (RFC 6901).
fn escape(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

/// The value at a JSON Pointer in the spec, or a panic naming the pointer.
fn at(pointer: &str) -> &'static Value {
    spec().pointer(pointer).unwrap_or_else(|| panic!("openapi.yaml has nothing at #{pointer}"))
}

/// Follows a local `$ref` (an OpenAPI response object may be one) to the
/// pointer of the object it names.
fn follow_ref(pointer: String) -> String {
    match at(&pointer).get("$ref").and_then(Value::as_str) {
        Some(target) => follow_ref(
            target
                .strip_prefix('#')
                .unwrap_or_else(|| panic!("only local $refs are expected, got {target}"))
                .to_owned(),
        ),
        None => pointer,
    }
}

/// The pointer of the response object the spec documents for an operation
/// and status.
fn documented_response(path: &str, method: &str, status: StatusCode) -> String {
    let pointer = format!("/paths/{}/{}/responses/{}", escape(path), method.to_ascii_lowercase(), status.as_u16());
    assert!(
        spec().pointer(&pointer).is_some(),
        "{method} {path} answered {status}, which openapi.yaml does not document"
    );
    follow_ref(pointer)
}

/// A validator for the schema at `pointer` in the spec.
fn validator_at(pointer: &str) -> Validator {
    let registry = Registry::new()
        .draft(Draft::Draft202012)
        .add(SPEC_URI, spec())
        .expect("the spec URI is valid")
        .prepare()
        .expect("openapi.yaml is a valid schema resource");
    jsonschema::draft202012::options()
        .with_registry(&registry)
        .build(&json!({ "$ref": format!("{SPEC_URI}#{pointer}") }))
        .unwrap_or_else(|e| panic!("the schema at #{pointer} does not compile: {e}"))
}

/// Every way `instance` breaks the schema at `pointer`; empty when it conforms.
fn violations(pointer: &str, instance: &Value) -> Vec<String> {
    let validator = validator_at(pointer);
    validator.iter_errors(instance).map(|e| format!("{e} (at {})", e.instance_path())).collect()
}

/// Where a schema with an OpenAPI `discriminator` sends `instance` (for
/// example `kind: board` to `BoardAnswer`), as a pointer; `None` when the
/// schema at `pointer` has no discriminator or the instance no known tag.
fn discriminated(pointer: &str, instance: &Value) -> Option<String> {
    let schema = at(&follow_ref(pointer.to_owned()));
    let discriminator = schema.get("discriminator")?;
    let tag = instance.get(discriminator.get("propertyName")?.as_str()?)?.as_str()?;
    let target = discriminator.get("mapping")?.get(tag)?.as_str()?;
    Some(target.strip_prefix('#')?.to_owned())
}

/// Asserts that `instance` conforms to the schema at `pointer`.
fn assert_schema(pointer: &str, instance: &Value, what: &str) {
    let errors = violations(pointer, instance);
    if errors.is_empty() {
        return;
    }
    // A `oneOf` only says that no branch matched; the branch the
    // discriminator picks says what is wrong.
    let detail = discriminated(pointer, instance)
        .map(|branch| {
            format!(
                "\nagainst #{branch}, which its discriminator selects:\n  {}",
                violations(&branch, instance).join("\n  ")
            )
        })
        .unwrap_or_default();
    panic!("{what} does not match #{pointer}:\n  {}{detail}\ninstance: {instance:#}", errors.join("\n  "));
}

/// The media type of a `Content-Type` value, without parameters, lowercased.
fn media_type(content_type: &str) -> String {
    content_type.split(';').next().unwrap_or_default().trim().to_ascii_lowercase()
}

/// Asserts that a response conforms to the response object at `pointer`:
/// its media type is one the spec lists, every required header is present,
/// and a JSON body matches the listed schema. Returns the JSON body (or
/// `Value::Null` for other media types).
fn assert_conforms(response: &TestResponse, pointer: &str, what: &str) -> Value {
    let documented = at(pointer);
    if let Some(headers) = documented.get("headers").and_then(Value::as_object) {
        for name in headers.keys() {
            let header = at(&follow_ref(format!("{pointer}/headers/{}", escape(name))));
            let required = header.get("required").and_then(Value::as_bool) == Some(true);
            if required {
                let value = response.header(name);
                assert!(
                    value.as_deref().is_some_and(|v| !v.is_empty()),
                    "{what}: the spec requires a `{name}` header; headers were {:?}",
                    response.headers
                );
            }
        }
    }
    let content_type = response.header("content-type").unwrap_or_else(|| panic!("{what}: no Content-Type header"));
    let media = media_type(&content_type);
    let content = documented
        .get("content")
        .and_then(Value::as_object)
        .unwrap_or_else(|| panic!("#{pointer} documents no content"));
    assert!(
        content.contains_key(&media),
        "{what}: Content-Type `{content_type}` is not among the documented {:?}",
        content.keys().collect::<Vec<_>>()
    );
    if media == "application/json" {
        let body = response.json();
        assert_schema(&format!("{pointer}/content/{}/schema", escape(&media)), &body, what);
        body
    } else {
        Value::Null
    }
}

/// The named request examples of `POST /best-move`.
fn request_examples() -> Vec<(String, Value)> {
    at("/paths/~1best-move/post/requestBody/content/application~1json/examples")
        .as_object()
        .expect("the request examples are a map")
        .iter()
        .map(|(name, example)| (name.clone(), example["value"].clone()))
        .collect()
}

/// Sends a request example and checks the 200 answer against the spec.
async fn answer_to_example(name: &str, body: &Value) -> Value {
    let response = helpers::post_best_move(body).await;
    let what = format!("the answer to example `{name}` ({body})");
    assert_eq!(response.status, StatusCode::OK, "{what} has status {}: {}", response.status, response.text());
    let pointer = documented_response("/best-move", "post", response.status);
    let answer = assert_conforms(&response, &pointer, &what);
    // What a schema cannot say: moves come once each, ascending, and the
    // answered move is one of them.
    let moves: Vec<u64> = answer["moves"]
        .as_array()
        .expect("moves is an array")
        .iter()
        .map(|m| m["move"].as_u64().expect("a move is an index"))
        .collect();
    assert!(moves.windows(2).all(|w| w[0] < w[1]), "{what}: moves are not strictly ascending: {moves:?}");
    if let Some(best) = answer["best_move"].as_u64() {
        assert!(moves.contains(&best), "{what}: best_move {best} is not among the moves {moves:?}");
    } else {
        assert!(moves.is_empty(), "{what}: no best_move, yet moves {moves:?}");
    }
    answer
}

/// Checks that an answer of `POST /best-move` refuses the request with
/// `status` and `code` as the spec documents; returns the error object.
fn assert_refused(response: TestResponse, status: StatusCode, code: &str, what: &str) -> Value {
    assert_eq!(
        response.status,
        status,
        "{what}: expected {status} {code}, got {}: {}",
        response.status,
        response.text()
    );
    let pointer = documented_response("/best-move", "post", status);
    let body = assert_conforms(&response, &pointer, what);
    assert_eq!(body["error"]["code"], code, "{what}: {body}");
    body["error"].clone()
}

// ------------------------------------------------------------------- the spec

#[test]
fn the_spec_is_openapi_3_1_and_carries_the_crate_version() {
    let openapi = at("/openapi").as_str().expect("openapi is a string");
    assert!(openapi.starts_with("3.1."), "openapi: {openapi}");
    assert_eq!(at("/info/version"), env!("CARGO_PKG_VERSION"));
    for route in ["/", "/assets/{name}", "/best-move", "/review", "/healthz", "/readyz", "/openapi.yaml", "/metrics"] {
        assert!(
            spec().pointer(&format!("/paths/{}", escape(route))).is_some(),
            "openapi.yaml does not document {route}"
        );
    }
}

#[test]
fn every_example_in_the_spec_matches_its_own_schema() {
    let mut checked = 0;
    for (path, item) in at("/paths").as_object().expect("paths is a map") {
        for (method, operation) in item.as_object().expect("a path item is a map") {
            let operation_pointer = format!("/paths/{}/{method}", escape(path));
            let mut bodies = Vec::new();
            if operation.get("requestBody").is_some() {
                bodies.push(follow_ref(format!("{operation_pointer}/requestBody")));
            }
            for status in operation["responses"].as_object().expect("responses").keys() {
                bodies.push(follow_ref(format!("{operation_pointer}/responses/{status}")));
            }
            for body in bodies {
                let Some(content) = at(&body).get("content").and_then(Value::as_object) else {
                    continue;
                };
                for (media, media_object) in content {
                    let schema = format!("{body}/content/{}/schema", escape(media));
                    let examples = media_object.get("examples").and_then(Value::as_object);
                    for (name, example) in examples.into_iter().flatten() {
                        assert_schema(&schema, &example["value"], &format!("example `{name}` of {method} {path}"));
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked >= 30, "only {checked} examples found in openapi.yaml");
}

#[test]
fn the_request_schema_refuses_what_the_server_must_refuse() {
    let request = "/components/schemas/BestMoveRequest";
    for body in [
        json!({}),
        json!([1, 2]),
        json!({"board": "XO..X....", "tree": 1}),
        json!({"bord": "XO..X...."}),
        json!({"board": "XO..X....", "maximizing": true}),
        json!({"tree": [1, 2], "to_move": "X"}),
        json!({"board": "XO..X...", "max_depth": 1}),
        json!({"board": "XO..Z...."}),
        json!({"board": ["X", "O", null]}),
        json!({"board": "XO..X....", "max_depth": 0}),
        json!({"board": "XO..X....", "mistake": 1.5}),
        json!({"board": "XO..X....", "seed": -1}),
        json!({"board": "XO..X....", "tie_break": "last"}),
        json!({"tree": []}),
        json!({"tree": {"name": "A"}}),
        json!({"tree": {"value": 1, "children": []}}),
        json!({"tree": {"value": 1, "colour": "red"}}),
        json!({"tree": 1.5}),
        json!({"tree": 9_223_372_036_854_775_808_u64}),
    ] {
        assert!(
            !violations(request, &body).is_empty(),
            "the request schema accepts {body}, which the contract refuses"
        );
    }
    // The largest seed is still a seed.
    assert_schema(request, &json!({"tree": [1, 2], "seed": u64::MAX}), "a request with seed 2^64-1");
}

#[test]
fn the_request_schema_describes_connect4_requests() {
    let request = "/components/schemas/BestMoveRequest";
    let rows = json!([".......", ".......", ".......", ".......", [null, "", " ", "o", "-", "_", "."], "..OXX.."]);
    for body in [
        json!({"game": "connect4", "moves": "4453"}),
        json!({"game": "connect4", "moves": [3, 3, 4, 2], "time_ms": 1000}),
        json!({"game": "connect4", "board": rows, "max_depth": 4, "moves": null}),
        json!({"game": "tictactoe", "board": "XO..X....", "time_ms": 3_600_000}),
    ] {
        assert_schema(request, &body, &format!("the request {body}"));
    }
    for body in [
        json!({"game": "connect4"}),
        json!({"game": "connect4", "moves": "4453", "board": rows}),
        json!({"game": "connect4", "board": "XO..X...."}),
        json!({"game": "connect4", "moves": "4458"}),
        json!({"game": "connect4", "moves": [7]}),
        json!({"game": "connect4", "moves": "4453", "to_move": "X"}),
        json!({"game": "connect4", "tree": [1, 2]}),
        json!({"game": "chess", "board": "XO..X...."}),
        json!({"moves": "4453"}),
        json!({"board": rows}),
        json!({"board": "XO..X....", "time_ms": 0}),
    ] {
        assert!(
            !violations(request, &body).is_empty(),
            "the request schema accepts {body}, which the contract refuses"
        );
    }
}

// ----------------------------------------------------------- 200 responses

#[tokio::test]
async fn every_documented_board_example_answers_with_a_response_matching_the_spec() {
    let examples: Vec<_> = request_examples()
        .into_iter()
        .filter(|(_, body)| body.get("board").is_some() && body.get("game").is_none())
        .collect();
    assert!(examples.len() >= 3, "the spec documents too few board examples");
    for (name, body) in examples {
        let answer = answer_to_example(&name, &body).await;
        assert_eq!(answer["kind"], "board", "example `{name}`: {answer}");
    }
}

#[tokio::test]
async fn every_documented_review_example_answers_with_a_review_matching_the_spec() {
    let examples = at("/paths/~1review/post/requestBody/content/application~1json/examples")
        .as_object()
        .expect("the review examples are a map");
    assert!(examples.len() >= 3, "an example per game");
    for (name, example) in examples {
        let body = &example["value"];
        let response = helpers::send(Method::POST, "/review", Some("application/json"), body.to_string()).await;
        let what = format!("the review of example `{name}` ({body})");
        assert_eq!(response.status, StatusCode::OK, "{what}: {}", response.text());
        let pointer = documented_response("/review", "post", response.status);
        let review = assert_conforms(&response, &pointer, &what);
        assert_eq!(review["game"], body["game"], "{what}");
        assert!(!review["plies"].as_array().unwrap().is_empty(), "{what}");
    }
    // A refusal is documented too.
    let response =
        helpers::send(Method::POST, "/review", Some("application/json"), json!({"moves": [4, 4]}).to_string()).await;
    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", response.text());
    let pointer = documented_response("/review", "post", response.status);
    let refused = assert_conforms(&response, &pointer, "a review of an illegal game");
    assert_eq!(refused["error"]["field"], "moves[1]");
}

#[tokio::test]
async fn every_documented_connect4_example_answers_with_a_response_matching_the_spec() {
    let examples: Vec<_> =
        request_examples().into_iter().filter(|(_, body)| body.get("game") == Some(&json!("connect4"))).collect();
    assert!(examples.len() >= 3, "the spec documents too few Connect Four examples");
    for (name, body) in examples {
        let answer = answer_to_example(&name, &body).await;
        assert_eq!(answer["kind"], "connect4", "example `{name}`: {answer}");
        let columns: Vec<&Value> = answer["moves"].as_array().unwrap().iter().map(|m| &m["move"]).collect();
        assert!(columns.contains(&&answer["best_move"]), "example `{name}`: {answer}");
    }
}

#[tokio::test]
async fn every_documented_gomoku_example_answers_with_a_response_matching_the_spec() {
    let examples: Vec<_> =
        request_examples().into_iter().filter(|(_, body)| body.get("game") == Some(&json!("gomoku"))).collect();
    assert!(examples.len() >= 3, "the spec documents too few Gomoku examples");
    for (name, body) in examples {
        let response = helpers::post_best_move(&body).await;
        let what = format!("the answer to example `{name}` ({body})");
        assert_eq!(response.status, StatusCode::OK, "{what}: {}", response.text());
        let pointer = documented_response("/best-move", "post", response.status);
        let answer = assert_conforms(&response, &pointer, &what);
        assert_eq!(answer["kind"], "gomoku", "{what}: {answer}");
        let moves: Vec<&Value> = answer["moves"].as_array().unwrap().iter().map(|m| &m["move"]).collect();
        assert!(moves.contains(&&answer["best_move"]), "{what}: {answer}");
        if name == "gomoku_board" {
            assert_eq!(
                (&answer["score"], &answer["exact"], &answer["plies_to_end"]),
                (&json!(-1), &json!(true), &json!(2))
            );
        }
        if name == "gomoku_forced_win" {
            assert_eq!((&answer["score"], &answer["exact"]), (&json!(1), &json!(true)), "{what}: {answer}");
        }
    }
}

#[tokio::test]
async fn every_documented_tree_example_answers_with_a_response_matching_the_spec() {
    let examples: Vec<_> = request_examples().into_iter().filter(|(_, body)| body.get("tree").is_some()).collect();
    assert!(examples.len() >= 3, "the spec documents too few tree examples");
    for (name, body) in examples {
        let answer = answer_to_example(&name, &body).await;
        assert_eq!(answer["kind"], "tree", "example `{name}`: {answer}");
    }
}

#[tokio::test]
async fn the_documented_examples_answer_what_their_descriptions_promise() {
    let examples: std::collections::HashMap<_, _> = request_examples().into_iter().collect();
    let answer = |name: &'static str| {
        let body = examples[name].clone();
        async move { answer_to_example(name, &body).await }
    };

    let a = answer("board_string").await;
    assert_eq!(
        (&a["best_move"], &a["score"], &a["plies_to_end"], &a["to_move"]),
        (&json!(8), &json!(-1), &json!(4), &json!("O")),
        "{a}"
    );
    assert_eq!(a["minimax"]["nodes"], 1061, "{a}");
    assert_eq!(a["board_after"], "XO..X...O", "{a}");

    let a = answer("board_empty").await;
    assert_eq!((&a["best_move"], &a["score"], &a["plies_to_end"]), (&json!(0), &json!(0), &json!(9)), "{a}");
    assert_eq!(a["minimax"]["nodes"], 549_946, "{a}");

    let a = answer("board_game_over").await;
    assert_eq!(a["best_move"], Value::Null, "{a}");
    assert_eq!(a["board_after"], Value::Null, "{a}");
    assert_eq!(a["status"], "x_won", "{a}");
    assert_eq!(a["status_after"], "x_won", "{a}");
    assert_eq!(a["winning_line"], json!([0, 1, 2]), "{a}");

    // The three board forms of the same position answer alike.
    let string = answer("board_string").await;
    for form in ["board_cells", "board_rows"] {
        let a = answer(form).await;
        for key in ["best_move", "score", "plies_to_end", "to_move", "board_after"] {
            assert_eq!(a[key], string[key], "`{form}` and `board_string` differ on {key}");
        }
    }

    let a = answer("tree_leaf").await;
    assert_eq!((&a["best_move"], &a["score"]), (&Value::Null, &json!(7)), "{a}");

    let a = answer("tree_arrays").await;
    assert_eq!((&a["best_move"], &a["score"]), (&json!(1), &json!(0)), "{a}");

    let a = answer("tree_three_by_three").await;
    assert_eq!((&a["best_move"], &a["score"]), (&json!(2), &json!(4)), "{a}");

    let a = answer("tree_objects").await;
    assert_eq!((&a["best_move"], &a["best_move_name"], &a["score"]), (&json!(0), &json!("A"), &json!(300)), "{a}");

    let a = answer("tree_mixed_minimizing").await;
    assert_eq!(a["maximizing"], false, "{a}");

    let a = answer("tree_depth_limited").await;
    assert_eq!((&a["max_depth"], &a["exact"]), (&json!(1), &json!(false)), "{a}");

    let a = answer("tree_random_tie_break").await;
    assert_eq!(a["seed"], json!(u64::MAX), "{a}");
    assert!(a["best_move"] == 0 || a["best_move"] == 1, "{a}");
}

// ----------------------------------------------------------------- errors

#[tokio::test]
async fn a_body_that_is_not_json_is_a_400_matching_the_spec() {
    for body in [r#"{"board": "XO..X....""#, "", "board=XO..X....", "{\"tree\": [1, 2,]}"] {
        let response = helpers::post_best_move_raw(body.to_owned()).await;
        assert_refused(response, StatusCode::BAD_REQUEST, "malformed_json", &format!("the body {body:?}"));
    }
}

#[tokio::test]
async fn an_unknown_path_is_a_404_matching_the_spec() {
    for path in ["/nowhere", "/best-move/extra"] {
        let response = helpers::get(path).await;
        assert_eq!(response.status, StatusCode::NOT_FOUND, "GET {path}: {}", response.text());
        let body = assert_conforms(&response, "/components/responses/NotFound", &format!("GET {path}"));
        assert_eq!(body["error"]["code"], "not_found");
    }
}

#[tokio::test]
async fn a_method_a_path_does_not_serve_is_a_405_with_an_allow_header_matching_the_spec() {
    for (method, path, allowed) in [
        (Method::GET, "/best-move", "POST"),
        (Method::PUT, "/best-move", "POST"),
        (Method::DELETE, "/best-move", "POST"),
        (Method::POST, "/healthz", "GET"),
        (Method::POST, "/readyz", "GET"),
        (Method::DELETE, "/metrics", "GET"),
        (Method::POST, "/openapi.yaml", "GET"),
        (Method::PATCH, "/", "GET"),
    ] {
        let what = format!("{method} {path}");
        let response = helpers::send(method, path, None, Body::empty()).await;
        assert_eq!(response.status, StatusCode::METHOD_NOT_ALLOWED, "{what}: {}", response.text());
        // Documented under the methods the path does serve.
        let served = at(&format!("/paths/{}", escape(path))).as_object().expect("a path item");
        assert!(
            served.values().all(|operation| operation.pointer("/responses/405").is_some()),
            "{what}: openapi.yaml does not document the 405 for {path}"
        );
        let body = assert_conforms(&response, "/components/responses/MethodNotAllowed", &what);
        assert_eq!(body["error"]["code"], "method_not_allowed", "{what}");
        let allow = response.header("allow").unwrap_or_default();
        assert!(allow.split(',').any(|m| m.trim() == allowed), "{what}: Allow `{allow}` does not list {allowed}");
    }
}

#[tokio::test]
async fn a_body_over_the_size_limit_is_a_413_matching_the_spec() {
    // 16 MiB is the documented default of MAX_BODY_BYTES. The body is a
    // well-formed tree, so only the size limit can refuse it with 413.
    let limit = 16 * 1024 * 1024;
    let mut body = String::with_capacity(limit + 64);
    body.push_str(r#"{"tree": [0"#);
    while body.len() <= limit {
        body.push_str(",0");
    }
    body.push_str("]}");
    let response = helpers::post_best_move_raw(body).await;
    assert_refused(response, StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large", "a body of 16 MiB + a few bytes");
}

#[tokio::test]
async fn a_body_that_does_not_arrive_in_time_is_a_408_matching_the_spec() {
    let app = bestmove::api::app(bestmove::config::Config { body_read_timeout_ms: 20, ..Default::default() });
    let request = Request::post("/best-move")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::CONTENT_LENGTH, "30")
        .body(crate::limits::stalled_body(r#"{"board":"#))
        .unwrap();
    let response = crate::limits::send_to(&app, request).await;
    assert_refused(response, StatusCode::REQUEST_TIMEOUT, "body_timeout", "9 bytes of a 30-byte body, then nothing");
}

#[tokio::test]
async fn a_body_not_declared_as_json_is_a_415_matching_the_spec() {
    let body = r#"{"board": "XO..X...."}"#;
    for content_type in [Some("text/plain"), Some("application/x-www-form-urlencoded"), None] {
        let response = helpers::send(Method::POST, "/best-move", content_type, body.to_owned()).await;
        assert_refused(
            response,
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            &format!("a JSON body sent with Content-Type {content_type:?}"),
        );
    }
}

#[tokio::test]
async fn every_kind_of_unprocessable_request_is_a_422_with_its_code_matching_the_spec() {
    let cases: Vec<(Value, &str, Option<&str>)> = vec![
        (json!([1, 2]), "invalid_request", None),
        (json!("board"), "invalid_request", None),
        (json!({}), "invalid_request", None),
        (json!({"board": "XO..X....", "tree": [1, 2]}), "invalid_request", None),
        (json!({"board": "XO..X....", "maximizing": false}), "invalid_request", None),
        (json!({"tree": [1, 2], "to_move": "X"}), "invalid_request", None),
        (json!({"bord": "XO..X...."}), "unknown_field", Some("bord")),
        (json!({"board": "XO..X....", "max_depth": 0}), "invalid_option", Some("max_depth")),
        (json!({"board": "XO..X....", "max_depth": "deep"}), "invalid_option", Some("max_depth")),
        (json!({"board": "XO..X....", "mistake": 1.5}), "invalid_option", Some("mistake")),
        (json!({"board": "XO..X....", "seed": -1}), "invalid_option", Some("seed")),
        (json!({"board": "XO..X....", "tie_break": "last"}), "invalid_option", Some("tie_break")),
        (json!({"board": "XO..X....", "to_move": "Z"}), "invalid_option", Some("to_move")),
        (json!({"tree": [1, 2], "maximizing": "yes"}), "invalid_option", Some("maximizing")),
        (json!({"board": "XO..X..."}), "invalid_board", None),
        (json!({"board": "XO..Z...."}), "invalid_board", None),
        (json!({"board": [["X", "O"], [], []]}), "invalid_board", None),
        (json!({"board": "XXXX....."}), "impossible_position", Some("board")),
        (json!({"board": "XXXOOO..."}), "impossible_position", Some("board")),
        (json!({"board": "XO..X....", "to_move": "X"}), "impossible_position", Some("to_move")),
        (json!({"tree": []}), "invalid_tree", None),
        (json!({"tree": [1, [2, "three"]]}), "invalid_tree", None),
        (json!({"tree": {"name": "A"}}), "invalid_tree", None),
        (json!({"tree": [[1, 2], [3, 4]], "max_depth": 1}), "missing_value", None),
    ];
    for (body, code, field) in cases {
        let what = format!("the body {body}");
        let response = helpers::post_best_move(&body).await;
        let error = assert_refused(response, StatusCode::UNPROCESSABLE_ENTITY, code, &what);
        if let Some(field) = field {
            assert_eq!(error["field"], field, "{what}: {error}");
        }
    }
}

#[tokio::test]
async fn an_empty_body_is_told_every_kind_of_position() {
    let response = helpers::post_best_move(&json!({})).await;
    let error = assert_refused(response, StatusCode::UNPROCESSABLE_ENTITY, "invalid_request", "the body {}");
    let message = error["message"].as_str().expect("a message");
    for named in ["\"board\"", "\"tree\"", "\"game\": \"connect4\"", "\"moves\""] {
        assert!(message.contains(named), "the error for {{}} names {named}: {message}");
    }
}

#[tokio::test]
async fn every_kind_of_unprocessable_connect4_request_is_a_422_with_its_code_matching_the_spec() {
    let cases: Vec<(Value, &str, Option<&str>)> = vec![
        (json!({"game": "go", "moves": "4"}), "invalid_option", Some("game")),
        (json!({"board": "XO..X....", "time_ms": 0}), "invalid_option", Some("time_ms")),
        (json!({"moves": "4453"}), "invalid_request", Some("moves")),
        (json!({"game": "connect4"}), "invalid_request", None),
        (json!({"game": "connect4", "moves": "4", "to_move": "O"}), "invalid_request", Some("to_move")),
        (json!({"game": "connect4", "moves": "1111111"}), "invalid_moves", Some("moves[6]")),
        (json!({"game": "connect4", "moves": [0, 9]}), "invalid_moves", Some("moves[1]")),
        (json!({"game": "connect4", "board": ["......."]}), "invalid_board", Some("board")),
        (json!({"game": "connect4", "board": ["...X...", ".", ".", ".", ".", "."]}), "invalid_board", Some("board[1]")),
        (
            json!({"game": "connect4", "board": [".......", ".......", ".......", ".......", ".......", "XX....."]}),
            "impossible_position",
            Some("board"),
        ),
    ];
    for (body, code, field) in cases {
        let what = format!("the body {body}");
        let response = helpers::post_best_move(&body).await;
        let error = assert_refused(response, StatusCode::UNPROCESSABLE_ENTITY, code, &what);
        assert_eq!(error["field"], field.map_or(Value::Null, Value::from), "{what}: {error}");
    }
}

#[tokio::test]
async fn a_tree_over_the_node_limit_is_a_422_tree_too_large_matching_the_spec() {
    // 2,000,000 is the documented default of MAX_TREE_NODES; this root has
    // one more leaf than that (about 4 MB, under the body limit).
    let leaves = 2_000_001;
    let mut body = String::with_capacity(2 * leaves + 16);
    body.push_str(r#"{"tree": [0"#);
    for _ in 1..leaves {
        body.push_str(",0");
    }
    body.push_str("]}");
    let response = helpers::post_best_move_raw(body).await;
    assert_refused(response, StatusCode::UNPROCESSABLE_ENTITY, "tree_too_large", "a tree of 2,000,002 nodes");
}

#[tokio::test]
async fn a_tree_over_the_depth_limit_is_a_422_tree_too_deep_matching_the_spec() {
    // 1000 is the documented default of MAX_TREE_DEPTH; both a tree just
    // over it and an absurdly nested body are refused the same way.
    for depth in [1_001, 1_100, 100_000] {
        let body = format!(r#"{{"tree": {}0{}}}"#, "[".repeat(depth), "]".repeat(depth));
        let response = helpers::post_best_move_raw(body).await;
        assert_refused(
            response,
            StatusCode::UNPROCESSABLE_ENTITY,
            "tree_too_deep",
            &format!("a tree nested {depth} arrays deep"),
        );
    }
}

// -------------------------------------------------------- other routes

#[tokio::test]
async fn the_operational_routes_answer_as_the_spec_documents() {
    for path in ["/", "/healthz", "/readyz", "/openapi.yaml", "/metrics"] {
        let response = helpers::get(path).await;
        assert_eq!(response.status, StatusCode::OK, "GET {path}: {}", response.text());
        let pointer = documented_response(path, "get", response.status);
        assert_conforms(&response, &pointer, &format!("GET {path}"));
    }
    let health = helpers::get("/healthz").await.json();
    assert_eq!(health, json!({"status": "ok", "version": env!("CARGO_PKG_VERSION")}));
    assert_eq!(helpers::get("/readyz").await.json(), json!({"status": "ready"}));
}

#[tokio::test]
async fn the_served_spec_is_the_spec_in_the_repository() {
    let response = helpers::get("/openapi.yaml").await;
    assert_eq!(response.status, StatusCode::OK);
    assert_eq!(response.text(), spec_text());
}

#[tokio::test]
async fn every_response_carries_a_request_id_and_echoes_the_clients_own() {
    for (method, path, body) in [
        (Method::GET, "/healthz", ""),
        (Method::GET, "/nowhere", ""),
        (Method::POST, "/best-move", r#"{"tree": [1, 2]}"#),
        (Method::POST, "/best-move", "{"),
    ] {
        let request =
            || Request::builder().method(method.clone()).uri(path).header(header::CONTENT_TYPE, "application/json");
        let response = helpers::app()
            .oneshot(request().body(Body::from(body)).expect("a request"))
            .await
            .expect("the router is infallible");
        let generated = response.headers().get("x-request-id").cloned();
        assert!(generated.as_ref().is_some_and(|v| !v.is_empty()), "{method} {path}: no x-request-id");

        let response = helpers::app()
            .oneshot(request().header("x-request-id", "contract-test-42").body(Body::from(body)).expect("a request"))
            .await
            .expect("the router is infallible");
        assert_eq!(
            response.headers().get("x-request-id").map(|v| v.as_bytes()),
            Some(&b"contract-test-42"[..]),
            "{method} {path}: the client's x-request-id is not echoed"
        );
        // Drain the body so the response is complete.
        let _ = response.into_body().collect().await;
    }
}

// ------------------------------------------------- the error examples are real

/// The body an example's `x-request` describes: `<<TEXT*N>>` stands for
/// TEXT repeated N times, so a large body fits on one line of the spec.
fn expand_body(template: &str) -> String {
    let mut body = String::new();
    let mut rest = template;
    while let Some(start) = rest.find("<<") {
        body.push_str(&rest[..start]);
        let end = rest[start..].find(">>").map(|e| start + e).expect("an unclosed <<...>> in an x-request body");
        let inner = &rest[start + 2..end];
        let (text, count) = inner.rsplit_once('*').expect("<<TEXT*N>> in an x-request body");
        body.push_str(&text.repeat(count.parse().expect("N in <<TEXT*N>> is a count")));
        rest = &rest[end + 2..];
    }
    body.push_str(rest);
    body
}

/// The default configuration with an example's `config` applied.
fn config_for(overrides: Option<&Value>) -> bestmove::config::Config {
    let mut config = bestmove::config::Config::default();
    for (key, value) in overrides.and_then(Value::as_object).into_iter().flatten() {
        let number = value.as_u64().unwrap_or_else(|| panic!("config {key}: {value} is not a count"));
        match key.as_str() {
            "max_body_bytes" => config.max_body_bytes = number as usize,
            "max_tree_nodes" => config.max_tree_nodes = number as usize,
            "max_tree_depth" => config.max_tree_depth = number as usize,
            "request_timeout_ms" => config.request_timeout_ms = number,
            "body_read_timeout_ms" => config.body_read_timeout_ms = number,
            "max_concurrent_searches" => config.max_concurrent_searches = Some(number as usize),
            "search_queue" => config.search_queue = number as usize,
            "client_max_searches" => config.client_max_searches = number as usize,
            "client_search_ms" => config.client_search_ms = number,
            other => panic!("an x-request config names an unknown setting {other}"),
        }
    }
    config
}

/// The status under which the paths use a response object of
/// `components/responses`. `NotFound` answers every path that is not
/// listed, and `/assets/{name}` for a name that is not one of the page's.
fn status_of_component(name: &str) -> StatusCode {
    let reference = format!("#/components/responses/{name}");
    let mut statuses = std::collections::BTreeSet::new();
    for item in at("/paths").as_object().expect("paths").values() {
        for operation in item.as_object().expect("a path item").values() {
            for (status, response) in operation["responses"].as_object().expect("responses") {
                if response.get("$ref").and_then(Value::as_str) == Some(reference.as_str()) {
                    statuses.insert(status.clone());
                }
            }
        }
    }
    if name == "NotFound" {
        assert!(statuses.iter().all(|s| s == "404"), "NotFound is used under {statuses:?}");
        return StatusCode::NOT_FOUND;
    }
    assert_eq!(statuses.len(), 1, "{reference} is used under {statuses:?}, not one status");
    let status = statuses.pop_first().expect("one status");
    StatusCode::from_u16(status.parse().expect("a numeric status")).expect("a valid status")
}

/// A body stream that yields its bytes, then waits forever.
struct Stalled(Option<String>);

impl futures_core::Stream for Stalled {
    type Item = Result<String, std::io::Error>;
    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        match self.0.take() {
            Some(bytes) => std::task::Poll::Ready(Some(Ok(bytes))),
            None => std::task::Poll::Pending,
        }
    }
}

/// Sends an example's request through a router with its configuration,
/// `concurrent` times at once, and returns every response.
async fn send_example_request(request: &Value) -> Vec<TestResponse> {
    let app = bestmove::api::app(config_for(request.get("config")));
    let method =
        Method::from_bytes(request["method"].as_str().expect("x-request method").as_bytes()).expect("a method");
    let path = request["path"].as_str().expect("x-request path").to_owned();
    let body = request.get("body").and_then(Value::as_str).map(expand_body).unwrap_or_default();
    let content_type = request.get("content_type").and_then(Value::as_str).map(str::to_owned);
    // `concurrent: N`: N copies at once; `sequential: N`: one after another.
    let sequential = request.get("sequential").and_then(Value::as_u64);
    let copies = sequential.or_else(|| request.get("concurrent").and_then(Value::as_u64)).unwrap_or(1);
    // `stalled_body: N`: the body is declared N bytes longer than what is
    // sent, and the rest never comes.
    let stalled = request.get("stalled_body").and_then(Value::as_u64);
    let mut tasks = Vec::new();
    let mut responses = Vec::new();
    for _ in 0..copies {
        let mut builder = Request::builder().method(method.clone()).uri(path.as_str());
        if let Some(content_type) = &content_type {
            builder = builder.header(header::CONTENT_TYPE, content_type.as_str());
        }
        let request = match stalled {
            Some(missing) => builder
                .header(header::CONTENT_LENGTH, body.len() as u64 + missing)
                .body(Body::from_stream(Stalled(Some(body.clone()))))
                .expect("a valid request"),
            None => builder.body(Body::from(body.clone())).expect("a valid request"),
        };
        let app = app.clone();
        let task = tokio::spawn(async move {
            let response = app.oneshot(request).await.expect("the router is infallible");
            let status = response.status();
            let headers = response.headers().clone();
            let body = response.into_body().collect().await.expect("a readable body").to_bytes().to_vec();
            TestResponse { status, headers, body }
        });
        if sequential.is_some() {
            responses.push(task.await.expect("the request task finished"));
        } else {
            tasks.push(task);
        }
    }
    for task in tasks {
        responses.push(task.await.expect("the request task finished"));
    }
    responses
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_error_example_in_the_spec_is_the_real_answer_to_its_request() {
    let mut checked = 0;
    for (name, response) in at("/components/responses").as_object().expect("responses") {
        let status = status_of_component(name);
        let examples = response.pointer("/content/application~1json/examples").and_then(Value::as_object);
        for (example_name, example) in examples.into_iter().flatten() {
            let what = format!("example `{example_name}` of {name}");
            let Some(request) = example.get("x-request") else {
                // No request is known to cause a 500: compare with what the
                // server sends when a bug does.
                assert_eq!(example["value"]["error"]["code"], "internal", "{what} has no x-request");
                let answer = bestmove::api::ApiError::Internal("a bug".into()).into_response();
                let answer = TestResponse {
                    status: answer.status(),
                    headers: answer.headers().clone(),
                    body: answer.into_body().collect().await.expect("a body").to_bytes().to_vec(),
                };
                assert_eq!((answer.status, answer.json()), (status, example["value"].clone()), "{what}");
                checked += 1;
                continue;
            };
            let responses = send_example_request(request).await;
            let matching = responses.iter().find(|r| r.status == status && r.json() == example["value"]);
            let Some(matching) = matching else {
                let got: Vec<String> = responses.iter().map(|r| format!("{} {}", r.status, r.text())).collect();
                panic!("{what}: documented as {status} {}, the server answered {got:?}", example["value"]);
            };
            assert_conforms(matching, &format!("/components/responses/{}", escape(name)), &what);
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} error examples found");
}
