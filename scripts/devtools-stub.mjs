// Ink imports react-devtools-core only when DEV=true; the bundle never enables it.
export default { initialize() {}, connectToDevTools() {} };
