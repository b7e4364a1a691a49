/**
 * Reads Berth's YAML run specs and configuration into the core model.
 *
 * <p>{@link dev.berth.spec.SpecLoader#load} is the entry point. A spec names the run, optionally its
 * {@code workdir} and {@code config}, and lists {@code groups} that run one after another; each
 * group lists {@code tasks} with an {@code id} and a {@code command} (an argument list, never a
 * shell string). A task's {@code matrix} expands it into one task per combination of values, with
 * {@code {name}} placeholders filled in its id, command and environment; {@code {spec_dir}} is
 * the spec file's folder, as an absolute path. Keys such as
 * {@code memory}, {@code cpus}, {@code priority} and {@code env} may be set on a group as the
 * default for its tasks.
 *
 * <p>Configuration keys, defaults and meanings are listed by {@link dev.berth.spec.ConfigKeys}.
 * Every mistake is reported as a {@link dev.berth.spec.SpecException} naming file, field and rule;
 * unknown keys get the nearest valid key as a suggestion.
 */
package dev.berth.spec;
