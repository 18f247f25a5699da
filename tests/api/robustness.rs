//! Whatever a client sends, the answer is a 2xx or a 4xx with a JSON body:
//! never a 5xx, a panic or a hang.

use axum::http::StatusCode;
use proptest::prelude::*;
use serde_json::Value;

use crate::helpers::post_best_move_raw;

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        "[xXoO. _-]{0,10}".prop_map(Value::String),
        ".{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(5, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..10).prop_map(Value::Array),
            prop::collection::vec(
                (
                    prop_oneof![
                        Just("board".to_string()),
                        Just("tree".to_string()),
                        Just("children".to_string()),
                        Just("value".to_string()),
                        Just("name".to_string()),
                        Just("max_depth".to_string()),
                        Just("mistake".to_string()),
                        Just("to_move".to_string()),
                        "[a-z_]{1,8}",
                    ],
                    inner
                ),
                0..5
            )
            .prop_map(|members| Value::Object(members.into_iter().collect())),
        ]
    })
}

/// A body that has a chance of getting deep into the request parser.
fn arb_request() -> impl Strategy<Value = Value> {
    (prop_oneof![Just("board"), Just("tree"), Just("bord")], arb_json(), prop::option::of(("[a-z_]{3,10}", arb_json())))
        .prop_map(|(key, value, extra)| {
            let mut body = serde_json::Map::new();
            body.insert(key.to_string(), value);
            if let Some((k, v)) = extra {
                body.insert(k, v);
            }
            Value::Object(body)
        })
}

fn check(body: Vec<u8>) -> Result<(), TestCaseError> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let response = runtime.block_on(post_best_move_raw(body.clone()));
    let status = response.status;
    prop_assert!(status.is_success() || status.is_client_error(), "{} for {}", status, String::from_utf8_lossy(&body));
    let json: Value = serde_json::from_slice(&response.body).map_err(|e| TestCaseError::fail(e.to_string()))?;
    if status != StatusCode::OK {
        prop_assert!(json["error"]["code"].is_string() && json["error"]["message"].is_string());
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_json_values_get_a_2xx_or_a_4xx_with_a_json_body(value in arb_json()) {
        check(value.to_string().into_bytes())?;
    }

    #[test]
    fn random_requests_get_a_2xx_or_a_4xx_with_a_json_body(value in arb_request()) {
        check(value.to_string().into_bytes())?;
    }

    #[test]
    fn random_bytes_get_a_4xx_with_a_json_body(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        check(bytes)?;
    }
}
