/** Internal helpers. Don't depend on this package: it may change in any release. */
package dev.neuraltext.internal;
