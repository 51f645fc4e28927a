//! The coach's words in Catalan, Spanish, English and French, from one catalogue that the web app
//! loads too (`web/coach-messages.json`): `{ "en": { "key": "text with {placeholders}" }, … }`.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use oware_rules::{Move, Side};

/// The catalogue's text, compiled in so that the binary needs no file beside it.
const CATALOGUE: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../web/coach-messages.json"
));

/// A language of the coach.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Lang {
    /// Catalan.
    Ca,
    /// Spanish.
    Es,
    /// English, the default.
    #[default]
    En,
    /// French.
    Fr,
}

impl Lang {
    /// Every language, in the order the app lists them.
    pub const ALL: [Lang; 4] = [Lang::Ca, Lang::Es, Lang::En, Lang::Fr];

    /// The code used in the catalogue and on the command line: `ca`, `es`, `en`, `fr`.
    pub const fn code(self) -> &'static str {
        match self {
            Lang::Ca => "ca",
            Lang::Es => "es",
            Lang::En => "en",
            Lang::Fr => "fr",
        }
    }

    /// The language a POSIX locale names (`ca_ES.UTF-8`, `fr`, `es_AR`…), if it is one of ours.
    pub fn from_locale(locale: &str) -> Option<Lang> {
        let code = locale.split(['_', '.', '@', '-']).next()?;
        code.parse().ok()
    }

    /// The language of the environment as POSIX orders it: `LC_ALL`, then `LC_MESSAGES`, then
    /// `LANG`; the first that is set and not empty decides, and English when it is none of ours.
    /// `var` looks a variable up (`std::env::var(name).ok()` in a program).
    pub fn from_environment(var: impl Fn(&str) -> Option<String>) -> Lang {
        ["LC_ALL", "LC_MESSAGES", "LANG"]
            .into_iter()
            .filter_map(|name| var(name).filter(|v| !v.is_empty()))
            .map(|locale| Lang::from_locale(&locale).unwrap_or_default())
            .next()
            .unwrap_or_default()
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A language code that is not `ca`, `es`, `en` or `fr`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownLang(pub String);

impl fmt::Display for UnknownLang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown language {:?}: expected ca, es, en or fr",
            self.0
        )
    }
}

impl std::error::Error for UnknownLang {}

impl FromStr for Lang {
    type Err = UnknownLang;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Lang::ALL
            .into_iter()
            .find(|l| l.code().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownLang(s.to_string()))
    }
}

/// Texts by language, then by key.
type Texts = BTreeMap<String, BTreeMap<String, String>>;

fn texts() -> &'static Texts {
    static TEXTS: OnceLock<Texts> = OnceLock::new();
    // The catalogue is part of the source and tested (see the tests below): it always parses.
    TEXTS.get_or_init(|| serde_json::from_str(CATALOGUE).expect("web/coach-messages.json parses"))
}

/// Every key of the catalogue (the English ones).
pub fn keys() -> impl Iterator<Item = &'static str> {
    texts()
        .get("en")
        .into_iter()
        .flat_map(|m| m.keys().map(String::as_str))
}

/// The raw text of `key` in `lang`, falling back to English, then to the key itself (so a missing
/// text shows up in tests instead of panicking).
pub fn raw(lang: Lang, key: &str) -> &str {
    let all = texts();
    all.get(lang.code())
        .and_then(|m| m.get(key))
        .or_else(|| all.get("en").and_then(|m| m.get(key)))
        .map_or(key, String::as_str)
}

/// `key` in `lang` with each `{name}` replaced by its value.
pub fn format(lang: Lang, key: &str, args: &[(&str, &str)]) -> String {
    let text = fill(raw(lang, key), args);
    match lang {
        Lang::Ca => elide_de(&text),
        _ => text,
    }
}

/// Catalan writes "d’" for "de" before a word that starts with a vowel sound: among the house
/// letters A, E and F ("efa"), and their lower-case forms ("després d’E", "la jugada d’f").
fn elide_de(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("de ") {
        let word_start = at == 0
            || !rest[..at]
                .chars()
                .next_back()
                .is_some_and(char::is_alphanumeric);
        let after = &rest[at + 3..];
        let mut letters = after.chars();
        let vowel_letter = matches!(letters.next(), Some('A' | 'E' | 'F' | 'a' | 'e' | 'f'))
            && !letters.next().is_some_and(char::is_alphanumeric);
        out.push_str(&rest[..at]);
        if word_start && vowel_letter {
            out.push_str("d’");
        } else {
            out.push_str("de ");
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

fn fill(template: &str, args: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) => {
                let name = &after[..close];
                match args.iter().find(|(n, _)| *n == name) {
                    Some((_, value)) => out.push_str(value),
                    None => out.push_str(&rest[open..open + close + 2]),
                }
                rest = &after[close + 1..];
            }
            None => {
                out.push_str(&rest[open..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// The names of the placeholders in a text, in order.
pub fn placeholders(text: &str) -> Vec<&str> {
    let mut names = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else { break };
        names.push(&after[..close]);
        rest = &after[close + 1..];
    }
    names
}

/// A count with the plural form of `noun` (`seeds`, `moves`, `plies`).
pub fn count(lang: Lang, noun: &str, n: u32) -> String {
    // French treats 0 and 1 as singular; the others only 1.
    let one = n == 1 || (lang == Lang::Fr && n == 0);
    let key = format!("{noun}.{}", if one { "one" } else { "other" });
    format(lang, &key, &[("n", &n.to_string())])
}

/// Seeds from centiseeds, with one decimal when not whole (`3 seeds`, `1,5 llavors`).
pub fn seeds_amount(lang: Lang, centiseeds: i32) -> String {
    let tenths = (f64::from(centiseeds) / 10.0).round() as i32;
    if tenths % 10 == 0 {
        return count(lang, "seeds", (tenths / 10).unsigned_abs());
    }
    let text = format!("{:.1}", f64::from(tenths) / 10.0).replace('.', raw(lang, "decimal"));
    format(lang, "seeds.other", &[("n", &text)])
}

/// Seeds from centiseeds as a learner reads them: whole seeds, "about" when rounded (`2 seeds`,
/// `about 1 seed`); the precise value is the analysis table's.
pub fn seeds_about(lang: Lang, centiseeds: i32) -> String {
    let whole = (f64::from(centiseeds.abs()) / 100.0).round() as u32;
    let seeds = count(lang, "seeds", whole);
    if centiseeds.abs() == (whole * 100) as i32 {
        seeds
    } else {
        format(lang, "seeds.about", &[("seeds", &seeds)])
    }
}

/// A side's name.
pub fn side(lang: Lang, side: Side) -> &'static str {
    raw(
        lang,
        match side {
            Side::South => "side.S",
            Side::North => "side.N",
        },
    )
}

/// Words joined as the language lists them: `b`, `b and c`, `a, b and c`.
pub fn list(lang: Lang, items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => {
            let head = init[1..].iter().fold(init[0].clone(), |acc, item| {
                format(lang, "list.serial", &[("a", &acc), ("b", item)])
            });
            format(lang, "list.pair", &[("a", &head), ("b", last)])
        }
    }
}

/// House letters as a list: `b and c`.
pub fn houses(lang: Lang, houses: &[usize]) -> String {
    let letters: Vec<String> = houses
        .iter()
        .filter_map(|&h| Move::new(h))
        .map(|m| m.letter().to_string())
        .collect();
    list(lang, &letters)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// Keys whose text may be the same in every language (punctuation, a name every language borrows).
    const SAME_EVERYWHERE: [&str; 3] = ["list.serial", "push.said", "puzzle.theme.kroo"];

    #[test]
    fn every_key_in_every_language_with_the_same_placeholders() {
        let all = texts();
        let english = &all["en"];
        assert!(english.len() > 20);
        assert_eq!(all.len(), 4, "exactly the four languages");
        for lang in Lang::ALL {
            let texts = all
                .get(lang.code())
                .unwrap_or_else(|| panic!("{lang} missing"));
            let theirs: BTreeSet<_> = texts.keys().collect();
            let ours: BTreeSet<_> = english.keys().collect();
            assert_eq!(theirs, ours, "{lang}: keys differ from English");
            for (key, text) in texts {
                let mut a = placeholders(text);
                let mut b = placeholders(&english[key]);
                a.sort_unstable();
                b.sort_unstable();
                assert_eq!(a, b, "{lang} {key}: placeholders differ from English");
                assert!(!text.trim().is_empty(), "{lang} {key} is empty");
            }
        }
    }

    #[test]
    fn no_english_left_in_the_other_languages() {
        let all = texts();
        let english = &all["en"];
        // Words of the English texts that have no place in the others.
        let english_words = [
            "the", "and", "takes", "seed", "seeds", "move", "moves", "leaves", "after", "game",
            "engine", "win", "loss", "reach", "safe", "board", "with", "nothing", "better",
        ];
        for lang in [Lang::Ca, Lang::Es, Lang::Fr] {
            for (key, text) in &all[lang.code()] {
                if !SAME_EVERYWHERE.contains(&key.as_str()) {
                    assert_ne!(text, &english[key], "{lang} {key} is the English text");
                }
                let words = placeholders_removed(text);
                for word in words.split(|c: char| !c.is_alphanumeric()) {
                    assert!(
                        !english_words.contains(&word.to_lowercase().as_str()),
                        "{lang} {key}: English word {word:?} in {text:?}"
                    );
                }
            }
        }
    }

    fn placeholders_removed(text: &str) -> String {
        let mut out = text.to_string();
        for name in placeholders(text) {
            out = out.replace(&format!("{{{name}}}"), " ");
        }
        out
    }

    #[test]
    fn catalan_elides_de_before_a_vowel_sound() {
        assert_eq!(
            elide_de("Després de E, Nord juga a. Després de B. La jugada f de Sud, de f i de Fa."),
            "Després d’E, Nord juga a. Després de B. La jugada f de Sud, d’f i de Fa."
        );
        assert_eq!(elide_de("de A"), "d’A");
        assert_eq!(elide_de("onde E"), "onde E");
    }

    #[test]
    fn filling_placeholders() {
        assert_eq!(fill("{a} and {b}", &[("a", "x"), ("b", "y")]), "x and y");
        assert_eq!(fill("{a} {missing} {", &[("a", "x")]), "x {missing} {");
        assert_eq!(placeholders("{move} takes {seeds}."), vec!["move", "seeds"]);
    }

    #[test]
    fn counts_lists_and_sides() {
        assert_eq!(count(Lang::En, "seeds", 1), "1 seed");
        assert_eq!(count(Lang::Ca, "seeds", 5), "5 llavors");
        assert_eq!(count(Lang::Fr, "seeds", 0), "0 graine");
        assert_eq!(seeds_amount(Lang::Es, 150), "1,5 semillas");
        assert_eq!(seeds_amount(Lang::En, -300), "3 seeds");
        assert_eq!(seeds_amount(Lang::En, 199), "2 seeds");
        assert_eq!(seeds_amount(Lang::Fr, 104), "1 graine");
        assert_eq!(seeds_amount(Lang::Ca, 234), "2,3 llavors");
        assert_eq!(seeds_about(Lang::En, 200), "2 seeds");
        assert_eq!(seeds_about(Lang::En, 110), "about 1 seed");
        assert_eq!(seeds_about(Lang::Fr, 1310), "environ 13 graines");
        assert_eq!(seeds_about(Lang::Es, 160), "cerca de 2 semillas");
        assert_eq!(houses(Lang::En, &[7, 8]), "b and c");
        assert_eq!(houses(Lang::Ca, &[6, 7, 8]), "a, b i c");
        assert_eq!(houses(Lang::Fr, &[2]), "C");
        assert_eq!(side(Lang::Es, Side::North), "Norte");
    }

    #[test]
    fn languages_from_codes_and_locales() {
        assert_eq!("FR".parse::<Lang>().unwrap(), Lang::Fr);
        assert!("de".parse::<Lang>().is_err());
        assert_eq!(Lang::from_locale("ca_ES.UTF-8"), Some(Lang::Ca));
        assert_eq!(Lang::from_locale("C"), None);
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert_eq!(
            Lang::from_environment(env(&[("LANG", "es_ES.UTF-8")])),
            Lang::Es
        );
        assert_eq!(
            Lang::from_environment(env(&[("LANG", "es_ES"), ("LC_ALL", "fr_FR")])),
            Lang::Fr
        );
        assert_eq!(
            Lang::from_environment(env(&[("LANG", "ca_ES"), ("LC_MESSAGES", "")])),
            Lang::Ca
        );
        assert_eq!(Lang::from_environment(env(&[("LANG", "de_DE")])), Lang::En);
        assert_eq!(Lang::from_environment(env(&[])), Lang::En);
    }
}
