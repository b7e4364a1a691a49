/** File writing the runtime relies on for durability. */
package dev.berth.runtime.files;
