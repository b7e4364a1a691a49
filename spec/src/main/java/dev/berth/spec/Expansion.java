package dev.berth.spec;

import java.util.Map;

/**
 * What a setting sees while it is applied to one expanded task.
 *
 * @param taskId the expanded task's id
 * @param values matrix and built-in placeholder values, for filling templates
 * @param dependencies collects the task's {@code after} and {@code follow} edges, which can only be
 *     resolved once every task of the run is known
 */
record Expansion(String taskId, Map<String, String> values, DependencyResolver dependencies) {}
