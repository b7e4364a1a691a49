/**
 * The settings tables: every key a user may write, once, with its type, parser, default and docs,
 * read by the YAML spec reader and the Java builders alike.
 *
 * <p>Parsers take values as written, never a YAML type: a {@code String} for a single value (the
 * text exactly as written), a {@code List} for a list, a {@code Map<String, ?>} for a mapping (in
 * written order), null for an empty value. Java callers may also pass the typed value itself (a
 * {@code Number}, {@code Boolean} or {@code Duration}). A value that breaks a rule is an
 * {@link dev.berth.core.settings.InvalidValue} stating the rule, which each front door places: the
 * spec reader at the file and field, the Java API in the setter's message.
 */
package dev.berth.core.settings;
