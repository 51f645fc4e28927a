//! Who sent a request: the peer that connected, or, when that peer is one of the reverse proxies
//! the server was told to trust (`--trusted-proxy`), the client the proxy names in
//! `X-Forwarded-For`. From any other peer the forwarding headers are anyone's words: they are
//! removed before a handler sees the request, so that neither the per-address limits nor the
//! seat cookie's `Secure` flag (`X-Forwarded-Proto`) can be steered by a client.

use std::net::{IpAddr, SocketAddr};

use axum::http::HeaderMap;

/// The address a request counts against in the per-address limits, as [`client_address`] finds
/// it; the edge middleware puts it in every request's extensions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientAddr(pub IpAddr);

/// The headers a reverse proxy sets about the client, believed only from a trusted proxy.
const FORWARDING_HEADERS: [&str; 4] = [
    "x-forwarded-for",
    "x-forwarded-proto",
    "x-forwarded-host",
    "forwarded",
];

/// Whether `peer` is one of the `trusted` proxies (an IPv4 peer seen through an IPv6 socket
/// counts as its IPv4 address).
pub fn is_trusted(peer: IpAddr, trusted: &[IpAddr]) -> bool {
    let peer = peer.to_canonical();
    trusted.iter().any(|t| t.to_canonical() == peer)
}

/// The client of a request that came from `peer`. From an untrusted peer, the peer. From a
/// trusted proxy, `X-Forwarded-For` is read from its right end (the entry the nearest proxy
/// added; a client can write anything to the left of it): the first address that is not itself a
/// trusted proxy is the client. An entry that is not an address stops the walk at the last
/// address known, so such clients share their proxy's count rather than escape it.
pub fn client_address(peer: IpAddr, headers: &HeaderMap, trusted: &[IpAddr]) -> IpAddr {
    let mut client = peer.to_canonical();
    if !is_trusted(client, trusted) {
        return client;
    }
    let hops: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .collect();
    for hop in hops.iter().rev() {
        let Some(ip) = parse_hop(hop) else { break };
        client = ip;
        if !is_trusted(ip, trusted) {
            break;
        }
    }
    client
}

/// Removes the forwarding headers from a request whose peer is not a trusted proxy.
pub fn drop_untrusted_headers(peer: IpAddr, headers: &mut HeaderMap, trusted: &[IpAddr]) {
    if !is_trusted(peer, trusted) {
        for name in FORWARDING_HEADERS {
            headers.remove(name);
        }
    }
}

/// One `X-Forwarded-For` entry: an address, with a port or in brackets as some proxies write it.
fn parse_hop(hop: &str) -> Option<IpAddr> {
    hop.parse::<IpAddr>()
        .ok()
        .or_else(|| hop.parse::<SocketAddr>().ok().map(|a| a.ip()))
        .or_else(|| hop.strip_prefix('[')?.strip_suffix(']')?.parse().ok())
        .map(|ip| ip.to_canonical())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(lines: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for line in lines {
            h.append("x-forwarded-for", line.parse().unwrap());
        }
        h
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn an_untrusted_peer_is_the_client_whatever_it_says() {
        let h = headers(&["203.0.113.9"]);
        assert_eq!(client_address(ip("127.0.0.1"), &h, &[]), ip("127.0.0.1"));
        assert_eq!(
            client_address(ip("198.51.100.1"), &h, &[ip("127.0.0.1")]),
            ip("198.51.100.1")
        );
    }

    #[test]
    fn behind_trusted_proxies_the_rightmost_untrusted_entry_is_the_client() {
        let trusted = [ip("127.0.0.1"), ip("10.0.0.2")];
        // The client wrote the first entry itself; the proxies added the others.
        let h = headers(&["6.6.6.6, 203.0.113.9", "10.0.0.2"]);
        assert_eq!(
            client_address(ip("127.0.0.1"), &h, &trusted),
            ip("203.0.113.9")
        );
        // Ports and brackets as some proxies write them; IPv4 through an IPv6 socket.
        let h = headers(&["[2001:db8::1]:4711"]);
        assert_eq!(
            client_address(ip("::ffff:127.0.0.1"), &h, &trusted),
            ip("2001:db8::1")
        );
        let h = headers(&["203.0.113.9:5000"]);
        assert_eq!(
            client_address(ip("127.0.0.1"), &h, &trusted),
            ip("203.0.113.9")
        );
        // Nothing forwarded: the proxy itself.
        assert_eq!(
            client_address(ip("127.0.0.1"), &HeaderMap::new(), &trusted),
            ip("127.0.0.1")
        );
        // Garbage stops the walk at the last address known.
        let h = headers(&["203.0.113.9, unknown"]);
        assert_eq!(
            client_address(ip("127.0.0.1"), &h, &trusted),
            ip("127.0.0.1")
        );
    }

    #[test]
    fn forwarding_headers_are_dropped_from_untrusted_peers_only() {
        let mut h = headers(&["203.0.113.9"]);
        h.insert("x-forwarded-proto", "https".parse().unwrap());
        let mut kept = h.clone();
        drop_untrusted_headers(ip("127.0.0.1"), &mut kept, &[ip("127.0.0.1")]);
        assert_eq!(kept.len(), 2);
        drop_untrusted_headers(ip("127.0.0.1"), &mut h, &[]);
        assert!(h.is_empty());
    }
}
