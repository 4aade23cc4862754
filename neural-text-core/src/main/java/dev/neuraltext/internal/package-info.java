/**
 * Internal helpers: argument checks ({@code Checks}) and atomic file writes ({@code AtomicFiles}). Don't depend on
 * this package: it may change in any release.
 *
 * <p>Dependencies: the JDK only. Imported by every other package of neural-text, and by the other neural-text modules.
 */
package dev.neuraltext.internal;
