package dev.berth.task.worker;

import dev.berth.task.BerthTask;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;

/** Creates the user's task from its class name, with an error that says what to fix. */
final class TaskLoader {

  /** The task cannot be created; the message is meant for the user. */
  static final class SetupException extends Exception {
    private static final long serialVersionUID = 1L;

    SetupException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  private TaskLoader() {}

  static BerthTask create(String className, ClassLoader loader) throws SetupException {
    Class<?> type;
    try {
      type = Class.forName(className, true, loader);
    } catch (ClassNotFoundException e) {
      throw new SetupException("task class " + className + " was not found on the class path", e);
    } catch (LinkageError e) {
      throw new SetupException("task class " + className + " cannot be loaded: " + e, e);
    }
    if (!BerthTask.class.isAssignableFrom(type)) {
      throw new SetupException("task class " + className + " does not implement " + BerthTask.class.getName(), null);
    }
    if (type.isInterface() || Modifier.isAbstract(type.getModifiers())) {
      throw new SetupException("task class " + className + " is abstract; name a concrete class", null);
    }
    Constructor<?> constructor;
    try {
      constructor = type.getConstructor();
    } catch (NoSuchMethodException e) {
      throw new SetupException("task class " + className + " needs a public constructor without arguments", e);
    }
    try {
      return (BerthTask) constructor.newInstance();
    } catch (InvocationTargetException e) {
      throw new SetupException("the constructor of task class " + className + " threw " + e.getCause(), e.getCause());
    } catch (IllegalAccessException e) {
      throw new SetupException("task class " + className + " must be public", e);
    } catch (InstantiationException e) {
      throw new SetupException("task class " + className + " cannot be instantiated: " + e, e);
    }
  }
}
