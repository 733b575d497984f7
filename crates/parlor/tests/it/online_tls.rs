//! `parlor online` over TLS: a `wss://` address reached through a TLS front made here (tokio-rustls, with a private
//! CA and a certificate for 127.0.0.1 that rcgen makes for the test) in front of a real `parlor serve`, as a reverse
//! proxy would stand in front of it. Two plain clients trusting the CA (`--ca-cert`) play a game to its end through
//! it; the full screen, in a pseudo-terminal, challenges a plain client through it and the game starts on both; a
//! client that does not trust the CA says why it cannot connect, and a `--ca-cert` file with no certificate stops the
//! client before it connects. Every wait is bounded.

use crate::common::BIN;
use crate::common::pty::{Key, Pty, Spawn};
use crate::online::{Client, Server, play_out, start_game};
use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair, KeyUsagePurpose,
};
use std::net::SocketAddr;
use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::ServerConfig;
use tokio_rustls::rustls::pki_types::{PrivateKeyDer, PrivatePkcs8KeyDer};

/// A TLS front on 127.0.0.1 that passes every connection on to a plain server; stops when dropped.
struct Front {
    /// `wss://127.0.0.1:PORT/`.
    url: String,
    _runtime: tokio::runtime::Runtime,
}

/// Makes a private CA (its certificate written as PEM to `ca_pem`) and a certificate it signs for 127.0.0.1 and
/// localhost; returns the server's TLS configuration with that certificate.
fn certificates(ca_pem: &Path) -> ServerConfig {
    let mut ca = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca.distinguished_name
        .push(DnType::CommonName, "Parlor test CA");
    ca.key_usages = vec![
        KeyUsagePurpose::KeyCertSign,
        KeyUsagePurpose::CrlSign,
        KeyUsagePurpose::DigitalSignature,
    ];
    let ca = CertifiedIssuer::self_signed(ca, KeyPair::generate().unwrap()).unwrap();
    std::fs::write(ca_pem, ca.pem()).unwrap();
    let key = KeyPair::generate().unwrap();
    let leaf = CertificateParams::new(vec!["127.0.0.1".to_string(), "localhost".to_string()])
        .unwrap()
        .signed_by(&key, &ca)
        .unwrap();
    let provider = Arc::new(tokio_rustls::rustls::crypto::ring::default_provider());
    ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(
            vec![leaf.der().clone()],
            PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.serialize_der())),
        )
        .unwrap()
}

impl Front {
    /// Listens on a free port of 127.0.0.1 with `config`, and passes each connection on to `backend` once its TLS
    /// handshake is done (a failed handshake just closes that connection).
    fn start(config: ServerConfig, backend: SocketAddr) -> Front {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_io()
            .build()
            .unwrap();
        let acceptor = TlsAcceptor::from(Arc::new(config));
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .unwrap();
        let port = listener.local_addr().unwrap().port();
        runtime.spawn(async move {
            while let Ok((tcp, _)) = listener.accept().await {
                let acceptor = acceptor.clone();
                tokio::spawn(async move {
                    let Ok(mut tls) = acceptor.accept(tcp).await else {
                        return;
                    };
                    let Ok(mut plain) = tokio::net::TcpStream::connect(backend).await else {
                        return;
                    };
                    let _ = tokio::io::copy_bidirectional(&mut tls, &mut plain).await;
                });
            }
        });
        Front {
            url: format!("wss://127.0.0.1:{port}/"),
            _runtime: runtime,
        }
    }
}

/// The address of a server listening at `ws://127.0.0.1:PORT/`.
fn backend(server: &Server) -> SocketAddr {
    let hostport = server.url.trim_start_matches("ws://").trim_end_matches('/');
    hostport.parse().unwrap()
}

#[test]
fn two_clients_play_a_game_through_a_tls_front_trusting_its_private_ca() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("server"));
    let ca = dir.path().join("ca.pem");
    let front = Front::start(certificates(&ca), backend(&server));
    let ca = ca.to_str().unwrap();
    let mut ann = Client::start_with(
        &front.url,
        "ann",
        &dir.path().join("ann"),
        &["--ca-cert", ca],
    );
    let mut bob = Client::start_with(
        &front.url,
        "bob",
        &dir.path().join("bob"),
        &["--ca-cert", ca],
    );
    ann.wait_for(&format!("Parlor online: {} as ann", front.url));
    let id = start_game(&mut ann, &mut bob, "3x3");
    ann.send("lobby");
    ann.wait_for(&format!("live game {id}: ann against bob on 3x3, untimed"));
    let mut game = nocca::Game::new("3x3".parse().unwrap(), nocca::GameOptions::default());
    let plies = play_out(id, &mut game, &mut [&mut ann, &mut bob]);
    assert!(plies > 0);
    let said = |c: &Client| {
        c.wait_for(&format!("game {id} over: "))
            .replace(" (you won)", "")
            .replace(" (you lost)", "")
    };
    let a = said(&ann);
    assert_eq!(a, said(&bob), "both players see the same result");
    let winner = match game.outcome().unwrap().winner {
        Some(nocca::Colour::Black) => "ann (black) wins",
        Some(nocca::Colour::White) => "bob (white) wins",
        None => "draw",
    };
    assert!(a.contains(winner), "{a}");
    assert!(!ann.text().contains("connection lost"), "{}", ann.text());
    ann.quit();
    bob.quit();
}

#[test]
fn the_full_screen_challenges_through_a_tls_front() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("server"));
    let ca = dir.path().join("ca.pem");
    let front = Front::start(certificates(&ca), backend(&server));
    let ca = ca.to_str().unwrap();
    let mut bob = Client::start_with(
        &front.url,
        "bob",
        &dir.path().join("bob"),
        &["--ca-cert", ca],
    );
    bob.wait_for("connected as bob");
    let ann_dir = dir.path().join("ann");
    let ann_dir_s = ann_dir.display().to_string();
    let mut ann = Pty::spawn(
        Spawn::new(
            &ann_dir,
            &[
                "online",
                &front.url,
                "--name",
                "ann",
                "--ca-cert",
                ca,
                "--config-dir",
                &ann_dir_s,
            ],
        )
        .size(100, 40),
    );
    ann.wait_for("Parlor online · ann · online");
    ann.wait_for("bob 1500");
    ann.press(Key::Char('c'));
    ann.wait_for("Challenge: NAME");
    for ch in "bob 3x3".chars() {
        ann.press(Key::Char(ch));
    }
    ann.press(Key::Enter);
    let line = bob.wait_for("challenge ");
    let challenge = line.split_whitespace().nth(1).unwrap().to_string();
    bob.send(&format!("accept {challenge}"));
    let screen = ann.wait_for("your move");
    assert!(screen.contains("bob (white, 1500)"), "{screen}");
    bob.wait_for("started: ann (black) against bob (white)");
    ann.press(Key::Char('x'));
    ann.press(Key::Char('y'));
    bob.wait_for("over: ");
    ann.press(Key::Char('q'));
    ann.press(Key::Char('q'));
    ann.finish().assert_restored_with(0);
    bob.quit();
}

#[test]
fn a_certificate_not_trusted_is_said_and_a_ca_file_without_one_stops_the_client() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("server"));
    let ca = dir.path().join("ca.pem");
    let front = Front::start(certificates(&ca), backend(&server));
    // Without the CA, the front's certificate is not trusted: said, tried again, and no panic.
    let carl = Client::start(&front.url, "carl", &dir.path().join("carl"));
    let line = carl.wait_for("the server's certificate for 127.0.0.1 is refused");
    assert!(line.contains("UnknownIssuer"), "{line}");
    assert!(line.contains("--ca-cert FILE"), "{line}");
    assert!(!carl.text().contains("panicked"), "{}", carl.text());
    carl.quit();
    // Trusting another CA is no better.
    let other = dir.path().join("other.pem");
    let _ = certificates(&other);
    let dan = Client::start_with(
        &front.url,
        "dan",
        &dir.path().join("dan"),
        &["--ca-cert", other.to_str().unwrap()],
    );
    dan.wait_for("the server's certificate for 127.0.0.1 is refused");
    dan.quit();
    // A CA file with no certificate in it stops the client at once, saying so.
    let junk = dir.path().join("junk.pem");
    std::fs::write(&junk, "hello\n").unwrap();
    let out = Command::new(BIN)
        .args(["online", &front.url, "--name", "erin", "--ca-cert"])
        .arg(&junk)
        .arg("--config-dir")
        .arg(dir.path().join("erin"))
        .arg("--data-dir")
        .arg(dir.path().join("erin"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("junk.pem: no certificate in it"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    // An address that is neither ws:// nor wss:// is refused as the command line is read.
    let out = Command::new(BIN)
        .args(["online", "https://127.0.0.1/", "--config-dir"])
        .arg(dir.path().join("erin"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("not a ws:// or wss:// address"), "{err}");
}
