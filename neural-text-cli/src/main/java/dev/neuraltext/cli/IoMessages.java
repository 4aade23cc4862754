package dev.neuraltext.cli;

import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/** Says in words why a file operation failed: the JDK's messages for file-system errors are often only the path. */
final class IoMessages {

    private IoMessages() {
    }

    /** The cause of {@code failure} in words, for example "permission denied: /proc/nt". */
    static String reason(Throwable failure) {
        if (failure == null) {
            return "unknown cause";
        }
        String what;
        if (failure instanceof AccessDeniedException) {
            what = "permission denied";
        } else if (failure instanceof NoSuchFileException) {
            what = "no such file or folder";
        } else if (failure instanceof NotDirectoryException) {
            what = "not a folder";
        } else if (failure instanceof FileAlreadyExistsException) {
            what = "a file of that name exists";
        } else if (failure instanceof FileSystemException e && e.getReason() != null) {
            what = e.getReason();
        } else if (failure instanceof FileSystemException) {
            what = failure.getClass().getSimpleName();
        } else {
            what = failure.getMessage() != null ? failure.getMessage() : failure.getClass().getSimpleName();
        }
        if (failure instanceof FileSystemException fse && fse.getFile() != null) {
            return what + ": " + fse.getFile();
        }
        return what;
    }
}
