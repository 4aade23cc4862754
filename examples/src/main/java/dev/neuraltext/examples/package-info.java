/** The neural-text command line, example mains and benchmarks against peers. */
package dev.neuraltext.examples;
