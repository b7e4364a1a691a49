package dev.berth.runtime.exec;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Process trees as Berth ends them. A tree is taken before any signal is sent, because children of
 * a process that dies are handed to another parent and can no longer be found as its descendants.
 */
public final class ProcessTrees {

  private ProcessTrees() {}

  /** The process and all its descendants now. */
  public static Set<ProcessHandle> of(ProcessHandle root) {
    Set<ProcessHandle> tree = new LinkedHashSet<>();
    tree.add(root);
    root.descendants().forEach(tree::add);
    return tree;
  }

  /** Asks every member of the tree to end (SIGTERM). */
  public static void terminate(Set<ProcessHandle> tree) {
    tree.forEach(ProcessHandle::destroy);
  }

  /**
   * Kills (SIGKILL) what of a tree is still alive, including what its living members started since
   * the tree was taken.
   */
  public static void killAlive(Set<ProcessHandle> snapshot) {
    Set<ProcessHandle> tree = new LinkedHashSet<>();
    for (ProcessHandle member : snapshot) {
      if (member.isAlive()) {
        tree.addAll(of(member));
      }
    }
    tree.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
  }
}
