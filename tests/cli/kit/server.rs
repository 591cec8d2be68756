//! A tiny HTTP/1.1 server on 127.0.0.1 whose answers a test decides, request by request.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A parsed HTTP request, as far as the tests care.
#[derive(Debug, Clone)]
pub struct Request {
    pub path: String,
    pub range: Option<u64>,
    pub headers: String,
}

/// What the server sends back.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// Close the connection after this many body bytes (Content-Length still says all).
    pub cut: Option<usize>,
    /// Send nothing at all and hold the connection for this long.
    pub stall: Option<Duration>,
    /// Send the body one byte at a time, this long apart (a trickling server). The server gives
    /// up by itself after 20 seconds, or as soon as the client hangs up.
    pub trickle: Option<Duration>,
}

impl Reply {
    pub fn ok(body: &[u8]) -> Reply {
        Reply {
            status: 200,
            headers: Vec::new(),
            body: body.to_vec(),
            cut: None,
            stall: None,
            trickle: None,
        }
    }

    pub fn status(status: u16) -> Reply {
        Reply {
            status,
            headers: Vec::new(),
            body: format!("status {status}\n").into_bytes(),
            cut: None,
            stall: None,
            trickle: None,
        }
    }

    pub fn redirect(location: &str) -> Reply {
        Reply::status(302).header("Location", location)
    }

    pub fn header(mut self, name: &str, value: &str) -> Reply {
        self.headers.push((name.into(), value.into()));
        self
    }

    pub fn trickle(mut self, every: Duration) -> Reply {
        self.trickle = Some(every);
        self
    }

    pub fn cut(mut self, after: usize) -> Reply {
        self.cut = Some(after);
        self
    }

    pub fn stall(duration: Duration) -> Reply {
        Reply {
            stall: Some(duration),
            ..Reply::status(200)
        }
    }
}

type Handler = dyn Fn(&Request, usize) -> Reply + Send + Sync;

/// An HTTP/1.1 server on 127.0.0.1 that answers each connection with `handler(request, n)`
/// (`n`: how many earlier requests had the same path) and closes it. It stops by itself after a
/// bounded time or number of connections, or when dropped.
pub struct Server {
    pub base: String,
    pub log: Arc<Mutex<Vec<Request>>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Server {
    pub fn start(handler: impl Fn(&Request, usize) -> Reply + Send + Sync + 'static) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let log = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let handler: Arc<Handler> = Arc::new(handler);
        let thread = {
            let (log, stop) = (log.clone(), stop.clone());
            std::thread::spawn(move || {
                let deadline = Instant::now() + Duration::from_secs(60);
                let mut served = 0;
                while !stop.load(Ordering::Relaxed) && Instant::now() < deadline && served < 200 {
                    match listener.accept() {
                        Ok((stream, _)) => {
                            served += 1;
                            let (handler, log, stop) = (handler.clone(), log.clone(), stop.clone());
                            std::thread::spawn(move || serve_one(stream, &*handler, &log, &stop));
                        }
                        Err(_) => std::thread::sleep(Duration::from_millis(2)),
                    }
                }
            })
        };
        Server {
            base,
            log,
            stop,
            thread: Some(thread),
        }
    }

    pub fn requests(&self) -> Vec<Request> {
        self.log.lock().unwrap().clone()
    }

    pub fn count(&self, path: &str) -> usize {
        self.requests().iter().filter(|r| r.path == path).count()
    }

    /// Waits up to `timeout` for the first request; whether one came.
    pub fn wait_for_request(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while self.log.lock().unwrap().is_empty() {
            if Instant::now() > deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        true
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn serve_one(
    mut stream: TcpStream,
    handler: &Handler,
    log: &Mutex<Vec<Request>>,
    stop: &AtomicBool,
) {
    let _ = stream.set_nonblocking(false);
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let Some(text) = read_head(&mut stream) else {
        return;
    };
    let path = text
        .lines()
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .unwrap_or("")
        .to_string();
    let range = text.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        if !k.eq_ignore_ascii_case("range") {
            return None;
        }
        v.trim()
            .strip_prefix("bytes=")?
            .strip_suffix('-')?
            .parse()
            .ok()
    });
    let request = Request {
        path: path.clone(),
        range,
        headers: text,
    };
    let n = {
        let mut log = log.lock().unwrap();
        let n = log.iter().filter(|r| r.path == path).count();
        log.push(request.clone());
        n
    };
    let reply = handler(&request, n);
    if let Some(stall) = reply.stall {
        let until = Instant::now() + stall;
        while Instant::now() < until && !stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(10));
        }
        return;
    }
    let mut out = format!(
        "HTTP/1.1 {} {}\r\nContent-Length: {}\r\nConnection: close\r\n",
        reply.status,
        reason(reply.status),
        reply.body.len()
    );
    for (k, v) in &reply.headers {
        out.push_str(&format!("{k}: {v}\r\n"));
    }
    out.push_str("\r\n");
    let body = &reply.body[..reply.cut.unwrap_or(reply.body.len()).min(reply.body.len())];
    let _ = stream.write_all(out.as_bytes());
    if let Some(every) = reply.trickle {
        let until = Instant::now() + Duration::from_secs(20);
        for byte in body {
            if Instant::now() > until
                || stop.load(Ordering::Relaxed)
                || stream.write_all(&[*byte]).is_err()
                || stream.flush().is_err()
            {
                return;
            }
            std::thread::sleep(every);
        }
    }
    let _ = stream.write_all(body);
    let _ = stream.flush();
    let _ = stream.shutdown(std::net::Shutdown::Both);
}

/// The head of a request (its request line and headers, up to the blank line; at most 16 KiB),
/// read byte by byte so that nothing of a body is taken; `None` when the connection fails or ends
/// first.
pub fn read_head(stream: &mut impl Read) -> Option<String> {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") && head.len() < 16 * 1024 {
        match stream.read(&mut byte) {
            Ok(1) => head.push(byte[0]),
            _ => return None,
        }
    }
    Some(String::from_utf8_lossy(&head).into_owned())
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        206 => "Partial Content",
        302 => "Found",
        404 => "Not Found",
        429 => "Too Many Requests",
        503 => "Service Unavailable",
        _ => "Status",
    }
}

/// Serves `asset` (and its SHA256SUMS) under `/v<version>/`, Range requests honoured.
pub fn range_reply(asset: &[u8], request: &Request) -> Reply {
    match request.range {
        Some(start) if (start as usize) < asset.len() => Reply {
            status: 206,
            headers: vec![(
                "Content-Range".into(),
                format!("bytes {start}-{}/{}", asset.len() - 1, asset.len()),
            )],
            body: asset[start as usize..].to_vec(),
            cut: None,
            stall: None,
            trickle: None,
        },
        _ => Reply::ok(asset),
    }
}
