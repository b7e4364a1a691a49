package dev.berth.session;

import dev.berth.runtime.engine.RunListener;

/**
 * What a front door watches of its run, such as a console view: the engine's events, given to
 * {@link SessionOptions.Builder#listener}. It is the engine's own listener under the session's
 * name, so that a front door needs to know only the session; the engine calls it on its thread,
 * after the event is applied, so an implementation returns quickly and never calls back into the
 * session.
 */
public interface SessionListener extends RunListener {}
