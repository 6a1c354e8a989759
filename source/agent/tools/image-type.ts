import { extname } from "node:path";

/** The image formats every supported model provider accepts. */
export type ImageMimeType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

const BY_EXTENSION: Readonly<Record<string, ImageMimeType>> = {
	".png": "image/png",
	".jpg": "image/jpeg",
	".jpeg": "image/jpeg",
	".gif": "image/gif",
	".webp": "image/webp",
};

/** The image type a file name claims, if any. */
export function imageMimeFromExtension(path: string): ImageMimeType | undefined {
	return BY_EXTENSION[extname(path).toLowerCase()];
}

/** The image type the leading bytes prove, if any. */
export function imageMimeFromBytes(bytes: Uint8Array): ImageMimeType | undefined {
	if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
	if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
	if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return "image/gif";
	if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes.subarray(8), ascii("WEBP"))) return "image/webp";
	return undefined;
}

function ascii(text: string): number[] {
	return [...text].map((c) => c.charCodeAt(0));
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
	return bytes.length >= prefix.length && prefix.every((b, i) => bytes[i] === b);
}
