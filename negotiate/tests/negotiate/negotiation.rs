//! The negotiation rules, table-driven, through the public API.

use crate::support;

use codec_core::MediaType;
use negotiate::{
    BuildError, EmptyAccept, Negotiator, NothingAcceptable, Outcome, Quality, Source, TieBreak,
};
use support::{CLAUDE_CODE, CURL, CURSOR, FIREFOX, MCP_CLIENT, OPENCODE, Stub, describe};

fn run(negotiator: &Negotiator, cases: &[(&[&str], &str)]) {
    for (lines, expected) in cases {
        let got = describe(negotiator.negotiate(lines.iter()));
        assert_eq!(got, *expected, "Accept lines {lines:?}");
        // The same through negotiate_target without overrides.
        let got = describe(negotiator.negotiate_target(lines.iter(), "/items").unwrap());
        assert_eq!(
            got, *expected,
            "Accept lines {lines:?} via negotiate_target"
        );
    }
}

const JSON: &str = "json application/json";
const MD: &str = "md text/markdown; charset=utf-8; variant=GFM";
const MCP: &str = "mcp application/vnd.mcp+json";

#[test]
fn agents_and_browsers() {
    let cases: &[(&[&str], &str)] = &[
        (&[CLAUDE_CODE], &format!("{MD} q=1")),
        (&[CURSOR], &format!("{MD} q=1")),
        (&[OPENCODE], &format!("{MD} q=1")),
        (&[MCP_CLIENT], &format!("{JSON} q=1")),
        (&[CURL], &format!("{JSON} q=1")),
        (&[FIREFOX], &format!("{JSON} q=0.8")),
        (&[], "default json"),
        (&["*/*;q=0"], "406"),
    ];
    run(&support::standard(), cases);
}

#[test]
fn matching_rules() {
    let md1 = format!("{MD} q=1");
    let json1 = format!("{JSON} q=1");
    let mcp1 = format!("{MCP} q=1");
    let cases: Vec<(&[&str], &str)> = vec![
        // The most specific matching range decides, whatever its place.
        (&["text/markdown;q=0, */*"], &json1),
        (&["*/*, text/markdown;q=0"], &json1),
        (&["*/*;q=0, text/markdown"], &md1),
        (&["text/*;q=0, text/markdown"], &md1),
        // An alias is a type of its own: `text/*` still accepts it.
        (
            &["text/markdown;q=0, text/*"],
            "md text/x-markdown; charset=utf-8 q=1",
        ),
        (&["application/*;q=0, text/*"], &md1),
        (
            &["application/json;q=0, */*;q=0.5"],
            "md text/markdown; charset=utf-8; variant=GFM q=0.5",
        ),
        // Case-insensitive type, subtype and parameter names.
        (&["TEXT/MARKDOWN"], &md1),
        (&["Text/Markdown;Q=0, */*"], &json1),
        (&["text/markdown;VARIANT=GFM"], &md1),
        // Range parameters must be a subset of the offer's; charset and
        // variant values compare case-insensitively, others exactly.
        (&["text/markdown;variant=gfm"], &md1),
        (&["text/markdown;variant=\"GFM\""], &md1),
        (&["text/markdown;charset=UTF-8;variant=GFM"], &md1),
        (&["text/markdown;variant=CommonMark"], "406"),
        (&["text/markdown;foo=bar"], "406"),
        (&["text/markdown;charset=iso-8859-1"], "406"),
        // JSON is UTF-8 by definition, so its implied charset matches.
        (&["application/json;charset=utf-8"], &json1),
        (&["application/json; charset=\"UTF-8\""], &json1),
        (&["application/json;charset=latin1"], "406"),
        (&["application/vnd.mcp+json;charset=utf-8"], &mcp1),
        (&["application/vnd.mcp+json"], &mcp1),
        // Aliases answer with the type the client asked for.
        (
            &["text/x-markdown"],
            "md text/x-markdown; charset=utf-8 q=1",
        ),
        (
            &["text/x-markdown;q=0.4, application/json;q=0.3"],
            "md text/x-markdown; charset=utf-8 q=0.4",
        ),
        // Ranking: quality first.
        (
            &["application/json;q=0.5, text/markdown;q=0.9"],
            "md text/markdown; charset=utf-8; variant=GFM q=0.9",
        ),
        // Then specificity of the deciding range.
        (
            &["text/*;q=0.5, application/json;q=0.5"],
            "json application/json q=0.5",
        ),
        // Then the client's order, then the server's.
        (&["application/vnd.mcp+json, application/json"], &mcp1),
        (&["application/json, application/vnd.mcp+json"], &json1),
        (&["application/*"], &json1),
        // Equally specific duplicates: the lower quality wins.
        (
            &["text/markdown, text/markdown;q=0, application/json;q=0.1"],
            "json application/json q=0.1",
        ),
        (
            &["text/markdown;q=0.7, text/markdown;q=0.3"],
            "md text/markdown; charset=utf-8; variant=GFM q=0.3",
        ),
    ];
    run(&support::standard(), &cases);
}

#[test]
fn quality_values() {
    let json = |q: &str| format!("{JSON} q={q}");
    let md = |q: &str| format!("{MD} q={q}");
    let cases: Vec<(&[&str], String)> = vec![
        (&["text/markdown;q=0.001"], md("0.001")),
        (
            &["text/markdown;q=0.5, application/json;q=0.499"],
            md("0.5"),
        ),
        (&["text/markdown;q=1.0"], md("1")),
        (&["text/markdown;q=1.000"], md("1")),
        // Invalid q: never outranks a valid one, never becomes 1.
        (
            &["text/markdown;q=abc, application/json;q=0.001"],
            json("0.001"),
        ),
        (&["text/markdown;q=2, application/json;q=0.1"], json("0.1")),
        (
            &["text/markdown;q=1.5, application/json;q=0.1"],
            json("0.1"),
        ),
        (
            &["text/markdown;q=1.0001, application/json;q=0.1"],
            json("0.1"),
        ),
        (&["text/markdown;q=.9, application/json;q=0.1"], json("0.1")),
        (
            &["text/markdown;q=0.9999, application/json;q=0.1"],
            json("0.1"),
        ),
        (&["text/markdown;q=-1, application/json;q=0.1"], json("0.1")),
        (
            &["text/markdown;q=\"1\", application/json;q=0.1"],
            json("0.1"),
        ),
        // ... but stays acceptable: the client listed it.
        (&["text/markdown;q=abc"], md("malformed")),
        (&["text/markdown;q=2"], md("malformed")),
        (&["text/markdown;q="], md("malformed")),
        // A non-zero q never rounds to 0.
        (&["text/markdown;q=0.0001, */*;q=0"], md("malformed")),
        // Zero however written is an exclusion.
        (&["text/markdown;q=0.0000, */*"], json("1")),
        (&["text/markdown;q=0., */*"], json("1")),
        (&["text/markdown;q=0.000, */*"], json("1")),
        // Only the first q counts; what follows it is ignored.
        (
            &["text/markdown;q=0.2;q=0.9;ext=1, application/json;q=0.5"],
            json("0.5"),
        ),
    ];
    let negotiator = support::standard();
    for (lines, expected) in &cases {
        assert_eq!(
            describe(negotiator.negotiate(lines.iter())),
            *expected,
            "{lines:?}"
        );
    }
}

#[test]
fn parsing_is_lenient_per_element() {
    let md1 = format!("{MD} q=1");
    let cases: Vec<(&[&str], &str)> = vec![
        (&["garbage, text/markdown"], &md1),
        (&["text/markdown, garbage"], &md1),
        (&["a/b c;q=0, text/markdown"], &md1),
        (
            &["text/html;x=\"a, application/json\", text/markdown;q=0.5"],
            "md text/markdown; charset=utf-8; variant=GFM q=0.5",
        ),
        (
            &["application/json;q=0.5;x=\"a,b\", text/markdown;q=0.4"],
            "json application/json q=0.5",
        ),
        (
            &["text/markdown;x=\"unterminated, application/json"],
            "json application/json q=1",
        ),
        (&["*/html, text/markdown"], &md1),
        (&["text/markdown ; q=0 , */*"], "json application/json q=1"),
        (
            &["text/markdown\t;\tq=0\t,\t*/*"],
            "json application/json q=1",
        ),
        (
            &["text/markdown;q = 0, application/json;q=0.5"],
            "json application/json q=0.5",
        ),
        (&[",,text/markdown,,"], &md1),
        (&["*"], "json application/json q=1"),
        (&["*;q=0, text/markdown"], &md1),
        // Several Accept lines are one list.
        (&["text/markdown;q=0", "*/*"], "json application/json q=1"),
        (&["", "text/markdown"], &md1),
        (
            &["application/json;q=0.5", "text/markdown;q=0.6"],
            "md text/markdown; charset=utf-8; variant=GFM q=0.6",
        ),
        // Present but empty, or wholly unparsable: no preference.
        (&[""], "default json"),
        (&["  "], "default json"),
        (&[",,,"], "default json"),
        (&["garbage"], "default json"),
        (&["", ""], "default json"),
    ];
    run(&support::standard(), &cases);
}

#[test]
fn caps_elements() {
    let junk = vec!["x"; negotiate::MAX_ELEMENTS].join(", ");
    let over = format!("{junk}, text/markdown");
    // Only the first MAX_ELEMENTS elements are read: none usable.
    run(&support::standard(), &[(&[&over], "default json")]);
    let under = vec!["x"; negotiate::MAX_ELEMENTS - 1].join(", ") + ", text/markdown";
    run(
        &support::standard(),
        &[(
            &[&under],
            "md text/markdown; charset=utf-8; variant=GFM q=1",
        )],
    );
    // Empty elements do not count.
    let commas = ",".repeat(1000) + "text/markdown";
    run(
        &support::standard(),
        &[(
            &[&commas],
            "md text/markdown; charset=utf-8; variant=GFM q=1",
        )],
    );
}

/// An element with more than `MAX_PARAMS` parameters is skipped whole,
/// as the docs say: read only in part, `variant=CommonMark` (its ninth
/// parameter) would be dropped and the range would match GFM markdown,
/// which the client did not ask for.
#[test]
fn an_element_with_too_many_parameters_is_skipped_whole() {
    let eight: String = (1..=7).map(|i| format!(";p{i}=1")).collect();
    let md = Stub::codec(
        "md",
        &format!("text/markdown; charset=utf-8; variant=GFM{eight}"),
    );
    let negotiator = Negotiator::builder()
        .codec(support::json())
        .codec(md)
        .build()
        .unwrap();
    let md = format!(
        "md text/markdown; charset=utf-8; variant=GFM{} q=1",
        eight.replace(';', "; ")
    );
    let nine = format!("text/markdown;variant=CommonMark{eight};p8=1");
    let cases: &[(&[&str], &str)] = &[
        // Eight parameters, all the offer's: read and matched.
        (&[&format!("text/markdown;variant=GFM{eight}")], &md),
        // Nine: skipped, so the header names nothing usable.
        (&[&nine], "default json"),
        // And the rest of the header still counts.
        (
            &[&format!("{nine}, application/json;q=0.5")],
            "json application/json q=0.5",
        ),
    ];
    run(&negotiator, cases);
}

/// The agent policy: known agents whose Accept states no preference beyond
/// `*/*` get the agent format; everything else negotiates as before.
#[test]
fn known_agents_get_the_agent_format() {
    let chatgpt = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ChatGPT-User/1.0; \
                   +https://openai.com/bot)";
    let claude = "Claude-User";
    let firefox_ua = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
    let on = support::builder().agent_format(Some("md")).build().unwrap();
    let off = support::standard();
    let mine = support::builder()
        .agent_format(Some("mcp"))
        .agent_user_agents(["MyAgent"])
        .build()
        .unwrap();
    // (negotiator, user agent, Accept lines, target, outcome)
    type Case<'a> = (
        &'a Negotiator,
        Option<&'a str>,
        &'a [&'a str],
        &'a str,
        String,
    );
    let agent = |format: &str| format!("{format} q=1 user-agent");
    let cases: Vec<Case<'_>> = vec![
        (&on, Some(chatgpt), &[], "/items", agent(MD)),
        (&on, Some(chatgpt), &["*/*"], "/items", agent(MD)),
        (&on, Some(claude), &["*/*;q=0.8"], "/items", agent(MD)),
        (&on, Some(claude), &[""], "/items", agent(MD)),
        (&on, Some(claude), &[CURL, "*/*"], "/items", agent(MD)),
        // A type named: obeyed.
        (
            &on,
            Some(claude),
            &["application/json"],
            "/items",
            format!("{JSON} q=1 accept"),
        ),
        (
            &on,
            Some(claude),
            &[FIREFOX],
            "/items",
            format!("{JSON} q=0.8 accept"),
        ),
        (
            &on,
            Some(claude),
            &[CLAUDE_CODE],
            "/items",
            format!("{MD} q=1 accept"),
        ),
        // Nothing acceptable stays nothing acceptable.
        (&on, Some(claude), &["*/*;q=0"], "/items", "406".to_owned()),
        // An override wins.
        (
            &on,
            Some(claude),
            &["*/*"],
            "/items?format=json",
            format!("{JSON} q=1 query-param"),
        ),
        // Not an agent, no User-Agent, or the policy off: as before.
        (
            &on,
            Some(firefox_ua),
            &["*/*"],
            "/items",
            format!("{JSON} q=1 accept"),
        ),
        (
            &on,
            Some("curl/8.5.0"),
            &[],
            "/items",
            "default json".to_owned(),
        ),
        (&on, None, &["*/*"], "/items", format!("{JSON} q=1 accept")),
        (
            &off,
            Some(chatgpt),
            &["*/*"],
            "/items",
            format!("{JSON} q=1 accept"),
        ),
        // A list of one's own.
        (&mine, Some("MyAgent/2"), &["*/*"], "/items", agent(MCP)),
        (
            &mine,
            Some(chatgpt),
            &["*/*"],
            "/items",
            format!("{JSON} q=1 accept"),
        ),
    ];
    for (negotiator, user_agent, accept, target, expected) in &cases {
        let outcome = negotiator
            .negotiate_agent(accept.iter(), target, user_agent.map(str::as_bytes))
            .unwrap();
        let got = match &outcome {
            Outcome::Selected(s) => format!(
                "{} {} q={} {}",
                s.format(),
                s.content_type(),
                s.quality(),
                match s.source() {
                    Source::Accept => "accept",
                    Source::QueryParam => "query-param",
                    Source::UserAgent => "user-agent",
                    _ => "other",
                }
            ),
            _ => describe(outcome),
        };
        assert_eq!(&got, expected, "{user_agent:?} {accept:?} {target}");
    }
    assert_eq!(
        support::builder()
            .agent_format(Some("csv"))
            .build()
            .unwrap_err(),
        BuildError::UnknownFormat {
            setting: "agent_format",
            format: "csv".to_owned()
        }
    );
}

/// RFC 9110 §12.5.1's example, with erratum 7138: `text/html;level=3`
/// gets 0.3 from `text/*` (the published table says 0.7).
#[test]
fn rfc_9110_example() {
    let accept = "text/*;q=0.3, text/plain;q=0.7, text/plain;format=flowed,\n       text/plain;format=fixed;q=0.4, */*;q=0.5";
    let accept = accept.replace('\n', "");
    let cases: &[(&str, u16)] = &[
        ("text/plain;format=flowed", 1000),
        ("text/plain", 700),
        ("text/html", 300),
        ("image/jpeg", 500),
        ("text/plain;format=fixed", 400),
        ("text/html;level=3", 300),
    ];
    for (media_type, thousandths) in cases {
        let negotiator = Negotiator::builder()
            .codec(Stub::codec("only", media_type))
            .build()
            .unwrap();
        let selection = negotiator.negotiate(Some(&accept)).into_result().unwrap();
        assert_eq!(
            selection.quality(),
            Quality::from_thousandths(*thousandths).unwrap(),
            "{media_type}"
        );
    }
    // All six offered at once: the flowed plain text wins.
    let mut builder = Negotiator::builder();
    for (i, (media_type, _)) in cases.iter().enumerate() {
        let format: &'static str = ["a", "b", "c", "d", "e", "f"][i];
        builder = builder.codec(Stub::codec(format, media_type));
    }
    let negotiator = builder.build().unwrap();
    let selection = negotiator.negotiate(Some(&accept)).into_result().unwrap();
    assert_eq!(selection.format(), "a");
    // The whole ranking: quality, then (text/html and text/html;level=3
    // tie on text/*) the server's order.
    let ranked: Vec<String> = negotiator
        .ranked(Some(&accept))
        .iter()
        .map(|s| format!("{}={}", s.format(), s.quality()))
        .collect();
    assert_eq!(ranked, ["a=1", "b=0.7", "d=0.5", "e=0.4", "c=0.3", "f=0.3"]);
}

#[test]
fn ranked_lists_every_acceptable_offer_best_first() {
    let standard = support::standard();
    let strict_empty = support::builder()
        .empty_accept(EmptyAccept::NotAcceptable)
        .default_codec("mcp")
        .build()
        .unwrap();
    let md_default = support::builder().default_codec("md").build().unwrap();
    let cases: &[(&Negotiator, &[&str], &[&str])] = &[
        (
            &standard,
            &[CURSOR],
            // The alias text/x-markdown, under */*, comes last.
            &["md=1", "json=0.8", "mcp=0.8", "md=0.8"],
        ),
        (&standard, &["*/*;q=0"], &[]),
        (
            &standard,
            &["application/*, text/markdown;q=0.5"],
            &["json=1", "mcp=1", "md=0.5"],
        ),
        (
            &standard,
            &["application/vnd.mcp+json, application/*"],
            &["mcp=1", "json=1"],
        ),
        (&standard, &[], &["json=1", "md=1", "mcp=1"]),
        (&md_default, &[], &["md=1", "json=1", "mcp=1"]),
        (&md_default, &[""], &["md=1", "json=1", "mcp=1"]),
        (&strict_empty, &[""], &[]),
        (&strict_empty, &[], &["mcp=1", "json=1", "md=1"]),
    ];
    for (negotiator, accept, expected) in cases {
        let ranked: Vec<String> = negotiator
            .ranked(accept.iter())
            .iter()
            .map(|s| format!("{}={}", s.format(), s.quality()))
            .collect();
        assert_eq!(ranked, *expected, "{accept:?}");
    }
}

/// A codec whose alias the client lists first comes where its alias
/// comes, and then serves its own type: the order of offers is one key
/// per offer, so `negotiate` and `ranked` agree however the offers are
/// met (before, markdown beat its alias by the server's order, the alias
/// beat JSON and JSON beat markdown by the client's, a cycle: `negotiate`
/// gave markdown as `text/x-markdown` and `ranked` put JSON first).
#[test]
fn an_alias_listed_first_places_its_codec_first() {
    let negotiator = support::standard();
    let accept = "text/x-markdown, application/json, text/markdown";
    let ranked: Vec<String> = negotiator
        .ranked(Some(accept))
        .iter()
        .map(|s| format!("{} {}", s.format(), s.content_type()))
        .collect();
    assert_eq!(
        ranked,
        [
            MD.to_owned(),
            "md text/x-markdown; charset=utf-8".to_owned(),
            "json application/json".to_owned(),
        ]
    );
    assert_eq!(
        describe(negotiator.negotiate(Some(accept))),
        format!("{MD} q=1")
    );
    let server_order = support::builder()
        .tie_break(TieBreak::ServerOrder)
        .build()
        .unwrap();
    assert_eq!(
        describe(server_order.negotiate(Some(accept))),
        "json application/json q=1"
    );
}

#[test]
fn policies() {
    let strict_empty = support::builder()
        .empty_accept(EmptyAccept::NotAcceptable)
        .build()
        .unwrap();
    run(
        &strict_empty,
        &[(&[""], "406"), (&["garbage"], "406"), (&[], "default json")],
    );

    let serve_default = support::builder()
        .nothing_acceptable(NothingAcceptable::ServeDefault)
        .build()
        .unwrap();
    run(
        &serve_default,
        &[
            (&["image/png"], "fallback json"),
            (&["text/html, image/png;q=0.5"], "fallback json"),
            // A default the client refused is never served.
            (&["application/json;q=0, image/png"], "406"),
            (&["*/*;q=0"], "406"),
            (&["application/*;q=0"], "406"),
        ],
    );

    let md_default = support::builder().default_codec("md").build().unwrap();
    run(&md_default, &[(&[], "default md"), (&[""], "default md")]);

    let server_order = support::builder()
        .tie_break(TieBreak::ServerOrder)
        .build()
        .unwrap();
    run(
        &server_order,
        &[
            (
                &["application/vnd.mcp+json, application/json"],
                "json application/json q=1",
            ),
            // Quality and specificity still come first.
            (
                &["application/vnd.mcp+json, application/json;q=0.9"],
                "mcp application/vnd.mcp+json q=1",
            ),
            (
                &["application/*, text/markdown"],
                "md text/markdown; charset=utf-8; variant=GFM q=1",
            ),
        ],
    );
}

#[test]
fn fallback_selection_reports_zero_quality() {
    let negotiator = support::builder()
        .nothing_acceptable(NothingAcceptable::ServeDefault)
        .build()
        .unwrap();
    let Outcome::Fallback(selection) = negotiator.negotiate(Some("image/png")) else {
        panic!("expected a fallback");
    };
    assert_eq!(selection.quality(), Quality::ZERO);
    assert_eq!(selection.source(), Source::Default);
}

#[test]
fn overrides() {
    let plain = support::standard();
    let with_ext = support::builder().path_extension(true).build().unwrap();
    let renamed = support::builder().format_param("as").build().unwrap();
    let no_query = support::builder().query_override(false).build().unwrap();
    type Case<'a> = (
        &'a Negotiator,
        &'a str,
        &'a str,
        Result<(&'a str, Source), &'a str>,
    );
    let cases: &[Case<'_>] = &[
        (
            &plain,
            "application/json",
            "/items?format=md",
            Ok(("md", Source::QueryParam)),
        ),
        (
            &plain,
            "application/json",
            "/items?format=MD",
            Ok(("md", Source::QueryParam)),
        ),
        (
            &plain,
            "text/markdown;q=0",
            "/items?format=md",
            Ok(("md", Source::QueryParam)),
        ),
        (
            &plain,
            "*/*;q=0",
            "/items?a=1&format=mcp",
            Ok(("mcp", Source::QueryParam)),
        ),
        (
            &plain,
            "application/json",
            "/items?other=md",
            Ok(("json", Source::Accept)),
        ),
        (
            &plain,
            "application/json",
            "/items.md",
            Ok(("json", Source::Accept)),
        ),
        (
            &plain,
            "*/*",
            "/items?format=csv",
            Err(r#"unknown format "csv" in `?format=`; valid formats: json, md, mcp"#),
        ),
        (
            &plain,
            "*/*",
            "/items?format=",
            Err(r#"unknown format "" in `?format=`; valid formats: json, md, mcp"#),
        ),
        (
            &with_ext,
            "application/json",
            "/items.md",
            Ok(("md", Source::PathExtension)),
        ),
        (
            &with_ext,
            "application/json",
            "/items.MD",
            Ok(("md", Source::PathExtension)),
        ),
        (
            &with_ext,
            "text/markdown",
            "/items.csv",
            Ok(("md", Source::Accept)),
        ),
        (
            &with_ext,
            "text/markdown",
            "/report.v2",
            Ok(("md", Source::Accept)),
        ),
        (
            &with_ext,
            "*/*",
            "/items.md?format=json",
            Ok(("json", Source::QueryParam)),
        ),
        (
            &renamed,
            "application/json",
            "/items?as=md",
            Ok(("md", Source::QueryParam)),
        ),
        (
            &renamed,
            "application/json",
            "/items?format=csv",
            Ok(("json", Source::Accept)),
        ),
        (
            &no_query,
            "application/json",
            "/items?format=csv",
            Ok(("json", Source::Accept)),
        ),
    ];
    for (negotiator, accept, target, expected) in cases {
        let got = negotiator
            .negotiate_target(Some(*accept), target)
            .map(|outcome| {
                let selection = *outcome.selection().unwrap();
                (selection.format(), selection.source())
            })
            .map_err(|e| e.to_string());
        assert_eq!(got, expected.map_err(str::to_owned), "{accept} {target}");
    }
}

#[test]
fn unknown_format_lists_the_valid_ones() {
    let error = support::standard()
        .negotiate_target(None::<&str>, "/x?format=xml")
        .unwrap_err();
    assert_eq!(error.param, "format");
    assert_eq!(error.value, "xml");
    assert_eq!(error.valid, ["json", "md", "mcp"]);
}

#[test]
fn strips_format_extensions() {
    let with_ext = support::builder().path_extension(true).build().unwrap();
    let plain = support::standard();
    let cases: &[(&Negotiator, &str, &str)] = &[
        (&with_ext, "/items.md", "/items"),
        (&with_ext, "/items.JSON", "/items"),
        (&with_ext, "/items.csv", "/items.csv"),
        (&with_ext, "/a.b/items", "/a.b/items"),
        (&with_ext, "/items", "/items"),
        (&plain, "/items.md", "/items.md"),
    ];
    for (negotiator, path, expected) in cases {
        assert_eq!(negotiator.strip_format_extension(path), *expected, "{path}");
    }
}

#[test]
fn not_acceptable_lists_what_is_available() {
    let negotiator = support::standard();
    let Outcome::NotAcceptable(e) = negotiator.negotiate(Some("image/png")) else {
        panic!("expected 406");
    };
    assert_eq!(
        e.body(),
        "406 Not Acceptable: no available media type matches the Accept header.\n\
         Available media types:\n  \
         application/json\n  \
         text/markdown; charset=utf-8; variant=GFM\n  \
         application/vnd.mcp+json\n  \
         text/x-markdown; charset=utf-8\n\
         Available formats (?format=NAME): json, md, mcp\n"
    );
    assert_eq!(
        e.to_string(),
        "no available media type is acceptable (available: application/json, \
         text/markdown; charset=utf-8; variant=GFM, application/vnd.mcp+json, \
         text/x-markdown; charset=utf-8)"
    );
    assert_eq!(e.formats().collect::<Vec<_>>(), ["json", "md", "mcp"]);
}

#[test]
fn builder_errors() {
    let cases: Vec<(negotiate::NegotiatorBuilder, BuildError)> = vec![
        (Negotiator::builder(), BuildError::NoCodecs),
        (
            Negotiator::builder()
                .codec(support::json())
                .codec(support::json()),
            BuildError::DuplicateFormat {
                format: "json".into(),
            },
        ),
        (
            Negotiator::builder().codec(Stub::codec("Json", "application/json")),
            BuildError::InvalidFormat {
                format: "Json".into(),
            },
        ),
        (
            Negotiator::builder().codec(Stub::codec("", "application/json")),
            BuildError::InvalidFormat { format: "".into() },
        ),
        (
            support::builder().default_codec("csv"),
            BuildError::UnknownFormat {
                setting: "default_codec",
                format: "csv".into(),
            },
        ),
        (
            support::builder().alias("csv", MediaType::from_static("text/csv")),
            BuildError::UnknownFormat {
                setting: "alias",
                format: "csv".into(),
            },
        ),
        (
            support::builder().format_param("a&b"),
            BuildError::InvalidFormatParam { name: "a&b".into() },
        ),
        (
            support::builder().format_param(""),
            BuildError::InvalidFormatParam { name: "".into() },
        ),
    ];
    for (builder, expected) in cases {
        let label = format!("{builder:?}");
        assert_eq!(builder.build().unwrap_err(), expected, "{label}");
    }
    assert_eq!(
        BuildError::UnknownFormat {
            setting: "alias",
            format: "csv".into()
        }
        .to_string(),
        r#"alias names the format "csv", which no registered codec has"#
    );
}

#[test]
fn many_offers_beyond_the_inline_buffer() {
    let formats: Vec<&'static str> = (0..40)
        .map(|i| &*Box::leak(format!("f{i}").into_boxed_str()))
        .collect();
    let mut builder = Negotiator::builder();
    for (i, format) in formats.iter().enumerate() {
        builder = builder.codec(Stub::codec(format, &format!("application/x-{i}")));
    }
    let negotiator = builder.build().unwrap();
    let selection = negotiator.negotiate(Some("application/x-33, */*;q=0.1"));
    assert_eq!(selection.selection().unwrap().format(), "f33");
}

#[test]
fn exposes_its_settings() {
    let negotiator = support::builder().default_codec("md").build().unwrap();
    assert_eq!(negotiator.default_codec().format(), "md");
    assert_eq!(negotiator.codecs().len(), 3);
    assert_eq!(negotiator.codec("MCP").unwrap().format(), "mcp");
    assert!(negotiator.codec("csv").is_none());
    assert_eq!(negotiator.format_param(), Some("format"));
    assert_eq!(
        negotiator
            .media_types()
            .map(MediaType::as_str)
            .collect::<Vec<_>>(),
        [
            "application/json",
            "text/markdown; charset=utf-8; variant=GFM",
            "application/vnd.mcp+json",
            "text/x-markdown; charset=utf-8"
        ]
    );
}

#[test]
fn shares_across_threads() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Negotiator>();
    send_sync::<Outcome<'static>>();
    send_sync::<negotiate::UnknownFormat>();
    send_sync::<BuildError>();
    let negotiator = std::sync::Arc::new(support::standard());
    let worker = {
        let negotiator = std::sync::Arc::clone(&negotiator);
        std::thread::spawn(move || {
            let outcome = negotiator.negotiate(Some(support::CURSOR));
            outcome.selection().unwrap().format().to_owned()
        })
    };
    assert_eq!(worker.join().unwrap(), "md");
}

#[test]
fn choices_are_owned_and_resolve_to_the_same_selection() {
    let negotiator = support::standard();
    let fallback = support::builder()
        .nothing_acceptable(NothingAcceptable::ServeDefault)
        .build()
        .unwrap();
    // (negotiator, Accept, target, what resolving the choice must give)
    let cases: &[(&Negotiator, Option<&str>, &str, &str)] = &[
        (&negotiator, Some(CURSOR), "/items", "md Accept q=1"),
        (
            &negotiator,
            Some("text/x-markdown"),
            "/items",
            "md Accept q=1",
        ),
        (&negotiator, None, "/items", "json Default q=1"),
        (&negotiator, None, "/items?format=mcp", "mcp QueryParam q=1"),
        (&fallback, Some("image/png"), "/items", "json Default q=0"),
    ];
    for &(negotiator, accept, target, expected) in cases {
        let outcome = negotiator.negotiate_target(accept, target).unwrap();
        let selection = *outcome.selection().unwrap();
        // A `Choice` outlives the outcome and the borrow: it is `'static`.
        let choice: Box<dyn std::any::Any + Send> = Box::new(selection.choice());
        drop(outcome);
        let choice = *choice.downcast::<negotiate::Choice>().unwrap();
        let resolved = negotiator.resolve(choice).unwrap();
        let got = format!(
            "{} {:?} q={}",
            resolved.format(),
            resolved.source(),
            resolved.quality()
        );
        assert_eq!(got, expected, "{accept:?} {target}");
        assert_eq!(resolved.content_type(), selection.content_type());
        assert_eq!(
            (choice.quality(), choice.source()),
            (resolved.quality(), resolved.source())
        );
    }
    // Another negotiator, even one built alike, does not resolve it.
    let choice = negotiator
        .negotiate(Some(CURSOR))
        .selection()
        .unwrap()
        .choice();
    assert!(support::standard().resolve(choice).is_none());
}

#[test]
fn refusals_are_static_errors() {
    fn keep(error: impl std::error::Error + Send + Sync + 'static) -> Box<dyn std::error::Error> {
        Box::new(error)
    }
    let negotiator = support::standard();
    let Outcome::NotAcceptable(refusal) = negotiator.negotiate(Some("image/png")) else {
        panic!("expected 406");
    };
    drop(negotiator);
    // Still lists what was available after the negotiator is gone.
    let error = keep(refusal.clone());
    assert!(
        error
            .to_string()
            .starts_with("no available media type is acceptable")
    );
    assert_eq!(refusal.formats().collect::<Vec<_>>(), ["json", "md", "mcp"]);
    let unknown = support::standard()
        .negotiate_target(None::<&str>, "/items?format=csv")
        .unwrap_err();
    assert_eq!(
        keep(unknown).to_string(),
        r#"unknown format "csv" in `?format=`; valid formats: json, md, mcp"#
    );
}
