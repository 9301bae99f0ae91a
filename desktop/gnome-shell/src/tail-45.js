
export default class GesturedExtension extends Extension {
    enable() {
        this._exporter = new Exporter();
        this._exporter.enable();
    }

    disable() {
        this._exporter.disable();
        this._exporter = null;
    }
}
