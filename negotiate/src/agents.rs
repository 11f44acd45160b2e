//! Agents known by their `User-Agent`: the opt-in policy that gives them
//! a format (markdown) when their `Accept` states no preference (see
//! [`NegotiatorBuilder::agent_format`](crate::NegotiatorBuilder::agent_format)).
//!
//! Agents that fetch pages for a model often send `Accept: */*` or none at
//! all, so negotiation alone gives them the server's default (JSON, or a
//! browser's HTML). Their `User-Agent` names them by a product token
//! (`ChatGPT-User/1.0`, `Claude-User`), which the vendors document for
//! `robots.txt`; the policy reads that token and nothing else, and never
//! overrides an `Accept` that names a type.

/// The `User-Agent` product tokens of agents that read pages for a model
/// (the vendors' documented names, current in 2026): user-triggered
/// fetchers, search indexers for answer engines, and crawlers.
///
/// - Anthropic: `Claude-User` (a user's request), `Claude-SearchBot`,
///   `ClaudeBot`;
/// - OpenAI: `ChatGPT-User` (a user's request), `OAI-SearchBot`, `GPTBot`;
/// - Perplexity: `Perplexity-User` (a user's request), `PerplexityBot`;
/// - Mistral: `MistralAI-User`; DuckDuckGo: `DuckAssistBot`; Meta:
///   `Meta-ExternalFetcher`.
///
/// Not in it: browsers, `curl` and HTTP libraries (they are not agents),
/// search engines' classic crawlers (`Googlebot`, `Bingbot`: their pages
/// are for people), and coding agents that already ask for markdown in
/// `Accept` (Claude Code, Cursor, OpenCode, OpenClaw).
pub const AGENT_USER_AGENTS: &[&str] = &[
    "Claude-User",
    "Claude-SearchBot",
    "ClaudeBot",
    "ChatGPT-User",
    "OAI-SearchBot",
    "GPTBot",
    "Perplexity-User",
    "PerplexityBot",
    "MistralAI-User",
    "DuckAssistBot",
    "Meta-ExternalFetcher",
];

/// Whether `user_agent` names one of `agents` as a product: the token, in
/// any ASCII case, starting the header or after a space, `(`, `;` or `,`,
/// and ending it or followed by `/`, a space, `;`, `)` or `,`. So
/// `Mozilla/5.0 (compatible; ChatGPT-User/1.0; +https://openai.com/bot)`
/// names `ChatGPT-User`, and `NotGPTBot/1` names nothing.
pub(crate) fn names_agent(user_agent: &[u8], agents: &[String]) -> bool {
    agents
        .iter()
        .any(|agent| names(user_agent, agent.as_bytes()))
}

fn names(user_agent: &[u8], token: &[u8]) -> bool {
    if token.is_empty() || token.len() > user_agent.len() {
        return false;
    }
    (0..=user_agent.len() - token.len()).any(|at| {
        let before = at.checked_sub(1).map(|i| user_agent[i]);
        let after = user_agent.get(at + token.len()).copied();
        matches!(before, None | Some(b' ' | b'(' | b';' | b','))
            && matches!(after, None | Some(b'/' | b' ' | b';' | b')' | b','))
            && user_agent[at..at + token.len()].eq_ignore_ascii_case(token)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_product_tokens() {
        let known: Vec<String> = AGENT_USER_AGENTS.iter().map(|s| s.to_string()).collect();
        let cases: &[(&str, bool)] = &[
            (
                "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ChatGPT-User/1.0; \
                 +https://openai.com/bot)",
                true,
            ),
            ("Claude-User", true),
            ("claude-user/1.0", true),
            (
                "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; \
                 +https://perplexity.ai/perplexitybot)",
                true,
            ),
            (
                "Mozilla/5.0 (compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
                true,
            ),
            ("NotGPTBot/1.0", false),
            ("GPTBotty/1.0", false),
            ("curl/8.5.0", false),
            (
                "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
                false,
            ),
            ("", false),
        ];
        for (user_agent, expected) in cases {
            assert_eq!(
                names_agent(user_agent.as_bytes(), &known),
                *expected,
                "{user_agent}"
            );
        }
        assert!(!names_agent(b"ClaudeBot", &[]));
        assert!(!names_agent(b"x", &[String::new()]));
    }
}
