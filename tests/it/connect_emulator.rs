//! The emulator's side of the connect flow on the wire: the page's validation, the redirect,
//! and `POST /outposts/connection-token` (RFC 6749 errors, PKCE, single use, the seven fields,
//! a machine token the fleet API accepts), plus admin-minted orchestrator tokens.

use serde_json::{Value, json};

use crate::support::connect::{Page, get, post_form, query};
use crate::support::{Emu, TestEnv, block_on};
use outposts::api::devin::{DevinClient, Platform};
use outposts::api::{ApiError, HttpClient, HttpOptions};
use outposts::connect::pkce::Pkce;

fn connect_url(emu: &Emu, challenge: &str, callback: &str) -> String {
    outposts::connect::connect_url(&emu.base_url, callback, "wire-test", "linux", challenge)
}

/// Approve on the page; the code from the redirect.
fn code_for(emu: &Emu, pkce: &Pkce, name: &str) -> String {
    let r = post_form(
        &format!("{}/outposts/connect", emu.base_url),
        &[
            ("callback_url", "http://localhost:8765/callback"),
            ("code_challenge", &pkce.challenge),
            ("outpost_name", name),
            ("platform", "linux"),
            ("decision", "connect"),
        ],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let location = r.header("location");
    assert!(
        location.starts_with("http://localhost:8765/callback?code="),
        "{location}"
    );
    query(&location, "code")
}

fn exchange(emu: &Emu, fields: &[(&str, &str)]) -> Page {
    post_form(
        &format!("{}/outposts/connection-token", emu.base_url),
        fields,
    )
}

fn json(p: &Page) -> Value {
    serde_json::from_str(&p.body).unwrap_or_else(|e| panic!("{e}: {}", p.body))
}

#[track_caller]
fn assert_invalid_grant(p: &Page) {
    assert_eq!(p.status, 400, "{}", p.body);
    assert_eq!(
        json(p),
        json!({"error": "invalid_grant", "error_description": "Invalid or expired connection code"})
    );
    assert_eq!(p.header("cache-control"), "no-store");
}

#[test]
fn the_page_validates_its_parameters_and_never_redirects_elsewhere() {
    let env = TestEnv::new();
    let emu = Emu::start(&env, &[]);
    let pkce = Pkce::generate();
    let ok = get(&connect_url(
        &emu,
        &pkce.challenge,
        "http://localhost:8765/callback",
    ));
    assert_eq!(ok.status, 200);
    assert!(ok.header("content-type").starts_with("text/html"));
    assert!(ok.body.contains("wire-test") && ok.body.contains("id=\"connect\""));

    for (challenge, callback) in [
        (pkce.challenge.as_str(), "https://evil.example/callback"),
        (pkce.challenge.as_str(), "http://localhost:8765/elsewhere"),
        ("not-a-challenge", "http://localhost:8765/callback"),
    ] {
        let p = get(&connect_url(&emu, challenge, callback));
        assert_eq!(p.status, 400, "{callback} {challenge}");
        assert!(p.header("location").is_empty());
    }
    let posted = post_form(
        &format!("{}/outposts/connect", emu.base_url),
        &[
            ("callback_url", "https://evil.example/callback"),
            ("code_challenge", &pkce.challenge),
            ("decision", "connect"),
        ],
    );
    assert_eq!(posted.status, 400);
    assert!(posted.header("location").is_empty());

    let denied = post_form(
        &format!("{}/outposts/connect", emu.base_url),
        &[
            ("callback_url", "http://127.0.0.1:9999/callback"),
            ("code_challenge", &pkce.challenge),
            ("decision", "deny"),
        ],
    );
    assert_eq!(denied.status, 303);
    let to = denied.header("location");
    assert_eq!(query(&to, "error"), "access_denied");
    assert!(query(&to, "error_description").contains("denied"));
}

#[test]
fn the_token_endpoint_speaks_rfc6749_and_checks_pkce_once() {
    let env = TestEnv::new();
    let emu = Emu::start(&env, &[]);
    let pkce = Pkce::generate();

    // Malformed requests.
    let p = block_on(async {
        let r = reqwest::Client::new()
            .post(format!("{}/outposts/connection-token", emu.base_url))
            .json(&json!({"grant_type": "authorization_code"}))
            .send()
            .await
            .unwrap();
        (r.status().as_u16(), r.text().await.unwrap())
    });
    assert_eq!(p.0, 400);
    assert_eq!(
        serde_json::from_str::<Value>(&p.1).unwrap()["error"],
        "invalid_request"
    );
    let p = exchange(
        &emu,
        &[
            ("grant_type", "password"),
            ("code", "x"),
            ("code_verifier", "y"),
        ],
    );
    assert_eq!(json(&p)["error"], "unsupported_grant_type");
    let p = exchange(&emu, &[("grant_type", "authorization_code"), ("code", "x")]);
    assert_eq!(json(&p)["error"], "invalid_request");
    assert_invalid_grant(&exchange(
        &emu,
        &[
            ("grant_type", "authorization_code"),
            ("code", "occ_unknown"),
            ("code_verifier", pkce.verifier.expose()),
        ],
    ));

    // A wrong verifier burns the code.
    let code = code_for(&emu, &pkce, "burned");
    let other = Pkce::generate();
    let grant = |code: &str, verifier: &str| {
        exchange(
            &emu,
            &[
                ("grant_type", "authorization_code"),
                ("code", code),
                ("code_verifier", verifier),
            ],
        )
    };
    assert_invalid_grant(&grant(&code, other.verifier.expose()));
    assert_invalid_grant(&grant(&code, pkce.verifier.expose()));

    // The right one: the seven documented fields, once.
    let code = code_for(&emu, &pkce, "wire-outpost");
    let ok = grant(&code, pkce.verifier.expose());
    assert_eq!(ok.status, 200, "{}", ok.body);
    assert_eq!(ok.header("cache-control"), "no-store");
    let v = json(&ok);
    let mut keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            "access_token",
            "account_id",
            "api_base_url",
            "outpost_id",
            "outpost_name",
            "service_user_id",
            "token_type"
        ]
    );
    assert_eq!(v["outpost_name"], "wire-outpost");
    assert_eq!(v["token_type"], "bearer");
    assert_eq!(v["api_base_url"], emu.base_url.as_str());
    assert_invalid_grant(&grant(&code, pkce.verifier.expose()));

    // The machine token reaches the fleet API, but cannot create outposts.
    let http = HttpClient::new(HttpOptions::default()).unwrap();
    let token = outposts::secrets::Secret::new(v["access_token"].as_str().unwrap());
    let client = DevinClient::new(
        outposts::settings::DevinSettings::new(&emu.base_url, token),
        http.clone(),
    );
    let outpost_id = v["outpost_id"].as_str().unwrap().to_string();
    let fetched = block_on(client.get_outpost(&outpost_id))
        .unwrap()
        .expect("outpost exists");
    assert_eq!(fetched.name.as_deref(), Some("wire-outpost"));
    block_on(client.list_page(&Default::default(), None)).unwrap();
    let err = block_on(client.create_outpost("nope", Some(Platform::Linux), None)).unwrap_err();
    assert!(
        matches!(err, ApiError::Unauthorized { status: 403, .. }),
        "{err}"
    );

    // An admin-minted orchestrator token can.
    let orch = block_on(emu.client().mint_token("orchestrator", "test")).unwrap();
    let admin = DevinClient::new(
        outposts::settings::DevinSettings::new(&emu.base_url, orch),
        http,
    );
    let made = block_on(admin.create_outpost("minted", Some(Platform::Macos), Some("d"))).unwrap();
    assert_eq!(made.platform, Some(Platform::Macos));
    // A name taken after approval fails the exchange, not silently.
    let code = code_for(&emu, &pkce, "race");
    block_on(admin.create_outpost("race", None, None)).unwrap();
    let p = grant(&code, pkce.verifier.expose());
    assert_eq!(p.status, 400);
    assert_eq!(json(&p)["error"], "invalid_grant");
}
