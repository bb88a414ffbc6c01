import ArgumentParser
import Foundation
import SurveyCore

/// The survey presenter's command-line tool.
@main
struct SurveyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "survey",
        abstract: "Load, check and run surveys written in survey format v1.",
        subcommands: [Serve.self, Validate.self, Simulate.self, Preview.self, Migrate.self, Export.self, ExportDefinition.self, Import.self,
                      Audit.self, Allocation.self]
    )
}
